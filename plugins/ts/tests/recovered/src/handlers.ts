// Generic call signatures opening the lines of an interface: without the plugin's recovery rewrite
// the grammar reads each as a comparison and the class after the interface is lost to an ERROR node.
type H<I, R> = (input: I) => R

export interface Make {
  <I extends object = {}, R = any>(
    handler1: H<I, R>
  ): [H<I, R>]

  // handler x2
  <
    I1 extends object = {},
    I2 extends object = {},
    R = any,
  >(
    handler1: H<I1, R>,
    handler2: H<I2, R>
  ): [H<I1, R>, H<I2, R>]

  // handler x3
  <
    I1 extends object = {},
    I2 extends object = {},
    I3 extends object = {},
    R = any,
  >(
    handler1: H<I1, R>,
    handler2: H<I2, R>,
    handler3: H<I3, R>
  ): [H<I1, R>, H<I2, R>, H<I3, R>]

  // handler x4
  <
    I1 extends object = {},
    I2 extends object = {},
    I3 extends object = {},
    I4 extends object = {},
    R = any,
  >(
    handler1: H<I1, R>,
    handler2: H<I2, R>,
    handler3: H<I3, R>,
    handler4: H<I4, R>
  ): [H<I1, R>, H<I2, R>, H<I3, R>, H<I4, R>]

  // handler x5
  <
    I1 extends object = {},
    I2 extends object = {},
    I3 extends object = {},
    I4 extends object = {},
    I5 extends object = {},
    R = any,
  >(
    handler1: H<I1, R>,
    handler2: H<I2, R>,
    handler3: H<I3, R>,
    handler4: H<I4, R>,
    handler5: H<I5, R>
  ): [H<I1, R>, H<I2, R>, H<I3, R>, H<I4, R>, H<I5, R>]
}

export class Registry {
  add(name: string): Registry {
    return this
  }
}

export function register(): Registry {
  const r = new Registry()
  r.add('a')
  return r
}
