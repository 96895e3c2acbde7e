// wire and planes that reach each other: path templates, every framework's route forms and
// client calls, a TypeScript front end calling a Flask and a gin back end in separate attached
// planes, impact across a shared library into its consumer, and the bad input of attach.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { RoutedStore } from "../../src/store/routed.js";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { attach, attachments } from "../../src/tools/attachments.js";
import { impact } from "../../src/tools/impact.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { wire } from "../../src/tools/wire.js";
import { normalisePath, pathsMatch } from "../../src/wire/path.js";
import { readUrlExpr, scanCalls, scanRoutes } from "../../src/wire/scan.js";
import { makeRepo } from "../git/fixture.js";

describe("path templates", () => {
  test("every spelling of a parameter becomes {}", () => {
    for (const p of ["/users/:id", "/users/{id}", "/users/<int:id>", "/users/${id}", "/users/[id]", "http://h:1/users/42?x=1"])
      assert.equal(normalisePath(p)?.replace("/42", "/{}"), "/users/{}", p);
    assert.ok(pathsMatch("/api/users/{}", "/api/users/7"));
    assert.ok(!pathsMatch("/api/users/{}", "/users/7"));
    assert.ok(pathsMatch("/api/users/{}", "/users/7", true), "an unknown base matches on the tail");
  });

  test("URL expressions: literals, templates, concatenation, dynamic", () => {
    assert.equal(readUrlExpr('"/api/x/" + id').path, "/api/x/{}");
    assert.deepEqual(
      { ...readUrlExpr("`${BASE}/users/${id}`"), written: "" },
      { written: "", path: "/users/{}", unknownBase: true, dynamic: false },
    );
    assert.equal(readUrlExpr("url").dynamic, true);
    assert.equal(readUrlExpr('f"{BASE}/items/{item_id}"').path, "/items/{}");
  });
});

describe("route and client forms", () => {
  test("frameworks", () => {
    const routes = scanRoutes([
      { path: "server.js", text: "const users = require('./routes/users');\napp.use('/api', users);\napp.get('/health', (req, res) => res.send('ok'));\n" },
      { path: "routes/users.js", text: "const router = express.Router();\nrouter.get('/users/:id', getUser);\nmodule.exports = router;\n" },
      { path: "pages/api/items/[id].ts", text: "export default function handler() {}\n" },
      { path: "app/api/orders/route.ts", text: "export async function POST() {}\n" },
      { path: "api/main.py", text: 'router = APIRouter(prefix="/v2")\n\n@router.get("/things/{thing_id}")\nasync def get_thing(thing_id: int):\n    pass\n' },
      { path: "shop/urls.py", text: 'urlpatterns = [path("carts/<int:pk>/", views.cart)]\n' },
      { path: "root/urls.py", text: 'urlpatterns = [path("shop/", include("shop.urls"))]\n' },
      { path: "main.go", text: 'func main() {\n\thttp.HandleFunc("GET /ping/{n}", ping)\n\tr.Route("/admin", func(r chi.Router) {\n\t\tr.Get("/stats", stats)\n\t})\n}\n' },
      { path: "Ctl.java", text: '@RestController\n@RequestMapping("/acct")\npublic class Ctl {\n  @GetMapping("/{id}")\n  public Acct one(@PathVariable long id) { return null; }\n}\n' },
      { path: "src/main.rs", text: 'let app = Router::new().route("/todos/:id", get(show).delete(remove));\n#[post("/login")]\nasync fn login() {}\n' },
    ]);
    const got = routes.map((r) => `${r.method} ${r.path}`).sort();
    for (const want of [
      "GET /api/users/{}",
      "GET /health",
      "ANY /api/items/{}",
      "POST /api/orders",
      "GET /v2/things/{}",
      "ANY /shop/carts/{}",
      "GET /ping/{}",
      "GET /admin/stats",
      "GET /acct/{}",
      "GET /todos/{}",
      "DELETE /todos/{}",
      "POST /login",
    ])
      assert.ok(got.includes(want), `missing route ${want} in ${got.join(", ")}`);
  });

  test("routes built from a constant prefix, dynamic ones, inline named handlers", () => {
    const routes = scanRoutes([
      {
        path: "cart.go",
        text: [
          "package main",
          "",
          "const baseUrl = \"/api/v1\"",
          "const (",
          "\tadmin = \"/admin\"",
          ")",
          "",
          "func routes(r *mux.Router, prefix string) {",
          "\tr.HandleFunc(baseUrl+\"/cart\", viewCart)",
          "\tr.HandleFunc(baseUrl + \"/cart/{id}\", deleteItem).Methods(\"DELETE\")",
          "\tr.HandleFunc(admin+\"/stats\", stats)",
          "\tr.HandleFunc(prefix+\"/dyn\", dyn)",
          "\tr.Get(ctx, key)",
          "}",
        ].join("\n"),
      },
      {
        path: "app.js",
        text: "const PREFIX = '/v2';\napp.get(PREFIX + '/items', listItems);\napp.get('/named', function showNamed(req, res) { res.send('x'); });\napp.post(base + '/x', h);\ncache.get(key, fallback);\n",
      },
    ]);
    const got = routes.map((r) => `${r.method} ${r.dynamic ? `dynamic ${r.written}` : r.path} ${r.handler ?? ""}${r.inline ? " inline" : ""} @${r.line}`).sort();
    for (const want of [
      "ANY /api/v1/cart viewCart @9",
      "ANY /api/v1/cart/{} deleteItem @10",
      "ANY /admin/stats stats @11",
      'ANY dynamic prefix+"/dyn" dyn @12',
      "GET /v2/items listItems @2",
      "GET /named showNamed inline @3",
      "POST dynamic base + '/x' h @4",
    ])
      assert.ok(got.includes(want), `missing ${want} in\n${got.join("\n")}`);
    assert.equal(routes.length, 7, "r.Get(ctx, key) and cache.get(key, fallback) are not routes");
  });

  test("clients", () => {
    const calls = scanCalls([
      { path: "a.ts", text: "const api = axios.create({});\nfetch('/x/1', { method: 'DELETE' });\napi.post(`/y/${id}`);\nky.get('/z');\n" },
      { path: "b.py", text: 'requests.get(BASE + "/items/" + str(i))\nhttpx.post("http://h/things")\n' },
      { path: "c.go", text: 'http.Get("http://svc/ping/1")\nreq, _ := http.NewRequest(http.MethodPut, "/v/2", nil)\n' },
      { path: "D.java", text: 'restTemplate.getForObject("/acct/" + id, Acct.class);\nclient.get().uri("/todos/{id}", 3)\n' },
    ]);
    const got = calls.map((c) => `${c.method} ${c.path ?? "dynamic"}`).sort();
    for (const want of ["DELETE /x/1", "POST /y/{}", "GET /z", "GET /items/{}", "POST /things", "GET /ping/1", "PUT /v/2", "GET /acct/{}", "GET /todos/{}"])
      assert.ok(got.includes(want), `missing call ${want} in ${got.join(", ")}`);
  });
});

async function planes(): Promise<ToolContext> {
  const root = mkdtempSync(join(tmpdir(), "drsg-wire-"));
  const front = join(root, "front");
  const pyapi = join(root, "pyapi");
  const goapi = join(root, "goapi");
  const lib = join(root, "ui");
  makeRepo(front, [
    {
      files: {
        "package.json": JSON.stringify({ name: "front" }),
        "src/api.ts": [
          'import axios from "axios";',
          'import { Button } from "@acme/ui";',
          'const BASE = "http://localhost:5000";',
          "export async function loadUser(id: string) { return fetch(`${BASE}/api/users/${id}`); }",
          'export async function listOrders() { return axios.get("/v1/orders"); }',
          "export async function mystery(url: string) { return fetch(url); }",
          'export function page() { return Button("ok"); }',
          "",
        ].join("\n"),
      },
      message: "front",
    },
  ]);
  makeRepo(pyapi, [
    {
      files: {
        "app/__init__.py": "",
        "app/users.py": 'from flask import Blueprint\n\nbp = Blueprint("users", __name__, url_prefix="/api")\n\n\n@bp.route("/users/<int:user_id>")\ndef get_user(user_id):\n    return {"id": user_id}\n',
      },
      message: "py",
    },
  ]);
  makeRepo(goapi, [
    {
      files: {
        "go.mod": "module example.com/goapi\n\ngo 1.21\n",
        "main.go": 'package main\n\nfunc listOrders(c *gin.Context) {}\n\nfunc main() {\n\tr := gin.Default()\n\tv1 := r.Group("/v1")\n\tv1.GET("/orders", listOrders)\n}\n',
      },
      message: "go",
    },
  ]);
  makeRepo(lib, [
    {
      files: {
        "package.json": JSON.stringify({ name: "@acme/ui" }),
        "src/index.ts": 'export { Button } from "./button.js";\n',
        "src/button.ts": "export function Button(label: string) { return render(label); }\nfunction render(x: string) { return x; }\n",
      },
      message: "ui",
    },
  ]);
  const store = openStore(join(root, "g.drsg"), { create: true });
  for (const [dir, plane] of [
    [front, "front"],
    [pyapi, "pyapi"],
    [goapi, "goapi"],
    [lib, "ui"],
  ] as const)
    await digest({ dir, plugins: activePlugins(), store, plane });
  const routed = new RoutedStore(store);
  return { store: routed, transport: "stdio", plugins: activePlugins, views: new GraphViews(routed) };
}

describe("planes that reach each other", () => {
  test("wire across attached planes, impact across a library, attach's bad input", { timeout: 120_000 }, async () => {
    const ctx = await planes();
    try {
      assert.match(String(await attach.run(ctx, { plane: "front", target: "pyapi", both: true })), /attaches 'pyapi' \(and the way back\)/);
      await attach.run(ctx, { plane: "front", target: "goapi" });
      const all = String(await wire.run(ctx, { plane: "front" }));
      assert.match(all, /GET \/api\/users\/\{\}\s+src\/api\.ts:4\s+in front\/src\/api\.loadUser[\s\S]*?-> GET \/api\/users\/\{\}\s+\[pyapi\] app\/users\.py:6\s+app\.users\.get_user/);
      assert.match(all, /GET \/v1\/orders\s+src\/api\.ts:5[\s\S]*?-> GET \/v1\/orders\s+\[goapi\] main\.go:8\s+example\.com\/goapi\.listOrders/);
      assert.match(all, /dynamic URL "url" — the parser cannot read it/);
      const byPath = String(await wire.run(ctx, { plane: "pyapi", path: "GET /api/users/7" }));
      assert.match(byPath, /served by \(1\):/);
      assert.match(byPath, /called from \(1\):[\s\S]*\[front\] src\/api\.ts:4/);

      // impact across: nothing before attaching, the consumer after.
      const before = String(await impact.run(ctx, { plane: "ui", name: "render", depth: 3, across: "attached" }));
      assert.match(before, /no plane is attached to this one/);
      await attach.run(ctx, { plane: "front", target: "ui" });
      const after = String(await impact.run(ctx, { plane: "ui", name: "render", depth: 3, across: "attached" }));
      assert.match(after, /across plane 'front': via npm:@acme\/ui\/Button → @acme\/ui\/src\/button\.Button/);
      assert.match(after, /front\/src\/api\.page/);
      const everywhere = String(await impact.run(ctx, { plane: "ui", name: "Button", depth: 2, across: "all" }));
      assert.match(everywhere, /across plane 'front'/);

      // A cycle of attachments is fine; a URL that never answers is bounded and said.
      await attach.run(ctx, { plane: "pyapi", target: "front" });
      await attach.run(ctx, { plane: "ui", target: "front", both: true });
      assert.match(String(await wire.run(ctx, { plane: "ui" })), /searched ui, front/);
      const silent = createServer(() => undefined);
      await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
      const port = (silent.address() as { port: number }).port;
      try {
        const t0 = Date.now();
        const said = String(await attach.run(ctx, { plane: "front", target: "remote", url: `http://127.0.0.1:${port}` }));
        assert.match(said, /does not answer within \d+ ms/);
        assert.ok(Date.now() - t0 < 30_000, "bounded");
        assert.match(String(await attachments.run(ctx, { plane: "front", probe: true })), /remote at http:\/\/127\.0\.0\.1:\d+ \(no token sent\)\s+— does not answer/);
        assert.match(String(await wire.run(ctx, { plane: "front" })), /note: remote remote at http:\/\/127\.0\.0\.1:\d+ not asked/);
      } finally {
        silent.close();
      }
      await assert.rejects(async () => attach.run(ctx, { plane: "front", target: "front" }), /cannot attach itself/);
    } finally {
      ctx.store.close();
    }
  });
});
