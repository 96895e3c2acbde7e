import { App, pick, type Either, type Split } from './app'

export function routes(app: App, either: Either, split: Split): void {
  app.get('/', (c) => c.json({}))
  app.get((c) => c.text('a'))
  app.get((c) => c.text('b'), function (c) {
    return c.json(1)
  })
  app.use('/x', async (c, next) => {
    c.json(1)
    await next()
  })
  app.each((c, i) => c.text(String(i)))
  pick((a) => a.run())
  pick((b) => b.run(), 1)
  either((x) => x.run())
  app.get('/a', (c) => c.json(2)).get((c) => c.text('c'))
  split('x').run()
  split('x', 'y').run()
  split('x', 'y', new Beta()).run()
}

// (last, so the lines above keep their numbers)
import { Beta } from './context'
export function longChain(app: App): void {
  app
    .get('/first', (c) => {
      const a = c.json({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10, k: 11, l: 12, m: 13 })
      const b = c.text('a long enough body that the callee text of the next call runs past two hundred chars')
      return c.json([a, b])
    })
    .get('/second', (c) => c.text('second'))
}
