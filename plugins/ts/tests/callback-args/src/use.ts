import { App, pick, type Either } from './app'

export function routes(app: App, either: Either): void {
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
}
