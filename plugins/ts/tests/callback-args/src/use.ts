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
