// An agent session (the SDK's real MCP Client over Streamable HTTP, against a real
// `drsg serve`) tries to make drsg send a secret or probe where it should not: token_env naming
// SECRET and DRSG_TOKEN, cloud-metadata and link-local URLs, 0.0.0.0, credentials in the URL,
// an older drsg's attachment record naming SECRET. Two loopback listeners record every request:
// one not listed by the operator (the attacker's), one listed in DRSG_ATTACH_ALLOW with a token
// variable. Secrets received by the attacker's listener: 0; requests to refused hosts: 0.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { PropValue } from "../../src/model/facts.js";
import { openStore } from "../../src/store/store.js";
import { attachAllowList, isForbiddenAddress, isLoopbackAddress, outboundTarget } from "../../src/tools/outbound.js";
import { type Served, call, fixtureDb, mcpClient, recorder, serve, strongToken } from "./support.js";

const TOKEN = strongToken();
const SECRET = `secret-${randomBytes(12).toString("hex")}`;
const TEAM = `team-${randomBytes(24).toString("hex")}`;

describe("attach: an agent chooses neither the token nor where it goes", () => {
  let s: Served;
  let attacker: Awaited<ReturnType<typeof recorder>>;
  let listed: Awaited<ReturnType<typeof recorder>>;
  let client: Client;
  before(async () => {
    attacker = await recorder();
    listed = await recorder();
    const { db } = await fixtureDb();
    // An attachment an older drsg recorded with the agent's token_env: still never honoured.
    const store = openStore(db);
    store.write((w) =>
      w.setPlaneProps("svc", { attachments: [{ kind: "remote", plane: "old", url: attacker.origin, token_env: "SECRET" }] as unknown as PropValue }),
    );
    store.close();
    s = await serve(["--db", db], {
      DRSG_TOKEN: TOKEN,
      SECRET,
      TEAM_TOKEN: TEAM,
      DRSG_ATTACH_ALLOW: `${listed.origin}=TEAM_TOKEN`,
    });
    client = await mcpClient(s.url, TOKEN);
  });
  after(async () => {
    await client?.close();
    await s?.stop();
    await attacker?.close();
    await listed?.close();
  });

  const leaked = (seen: { headers: Record<string, unknown>; body: string; url: string }[], values: string[]) =>
    seen.filter((r) => values.some((v) => JSON.stringify(r.headers).includes(v) || r.body.includes(v) || r.url.includes(v))).length;

  test("the attacks", async () => {
    const refusals: string[] = [];
    // 1. token_env is refused, whatever it names; nothing is sent, nothing recorded.
    for (const token_env of ["SECRET", "DRSG_TOKEN", "TEAM_TOKEN"]) {
      const r = await call(client, "attach", { plane: "svc", target: "x", url: attacker.origin, token_env });
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /FORBIDDEN.*token_env is not accepted.*DRSG_ATTACH_ALLOW/s);
    }
    assert.equal(attacker.seen.length, 0, "a refused attach sent nothing");

    // 2. Refused destinations: metadata names, link-local, 0.0.0.0, not loopback and not listed, credentials in the url.
    const refused = [
      "http://169.254.169.254/latest/meta-data/",
      "http://169.254.169.254:80",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://metadata.google.internal.:80/",
      "http://metadata/",
      "http://[fe80::1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://100.100.100.200/",
      `http://0.0.0.0:${new URL(attacker.origin).port}/`,
      "http://0.0.0.0:1/",
      "http://10.0.0.1:7700/",
      "http://192.0.2.7/",
      `http://user:pass@${new URL(attacker.origin).host}/`,
      "http://no-such-name.invalid/",
    ];
    for (const url of refused) {
      const r = await call(client, "attach", { plane: "svc", target: "x", url });
      assert.equal(r.isError, true, `${url}: ${r.text}`);
      assert.match(r.text, /URL_NOT_ALLOWED/, url);
      refusals.push(r.text.replace(new URL(url).origin, "<origin>"));
    }
    // The same words whether something listens there (0.0.0.0:<the attacker's port>) or not.
    assert.equal(new Set(refusals).size, 1, refusals.join("\n"));
    assert.equal(attacker.seen.length, 0, "no refused url reached a listener");

    // 3. A loopback url an agent types is allowed, but no token goes with it.
    const ok = await call(client, "attach", { plane: "svc", target: "x", url: attacker.origin });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, /answers \(pid 4242\) \(no token sent\)/);
    await call(client, "wire", { plane: "svc" });
    const listing = await call(client, "attachments", { plane: "svc", probe: true });
    assert.doesNotMatch(listing.text, /SECRET/);

    // 4. The operator's listed origin gets its token, and only that one.
    const team = await call(client, "attach", { plane: "svc", target: "y", url: listed.origin });
    assert.match(team.text, /token from \$TEAM_TOKEN, set by the operator/);
    await call(client, "wire", { plane: "svc" });

    assert.ok(attacker.seen.some((r) => r.url === "/rpc"), "the attacker's listener was asked (so the test can fail)");
    assert.equal(
      attacker.seen.filter((r) => r.headers.authorization !== undefined).length,
      0,
      "no Authorization header reached the unlisted listener",
    );
    assert.equal(leaked(attacker.seen as never, [SECRET, TOKEN, TEAM]), 0, "secrets received by the attacker: 0");
    assert.equal(leaked(listed.seen as never, [SECRET, TOKEN]), 0, "the listed origin never gets another secret");
    const rpc = listed.seen.filter((r) => r.url === "/rpc");
    assert.ok(rpc.length > 0);
    for (const r of rpc) assert.equal(r.headers.authorization, `Bearer ${TEAM}`);
  });
});

describe("outbound rules", () => {
  test("a name that resolves to link-local (or anywhere not loopback) is refused; one to loopback is not", async () => {
    const fake = (map: Record<string, string[]>) => async (name: string) =>
      (map[name] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    const dns = fake({
      "evil.example": ["169.254.169.254"],
      "mixed.example": ["127.0.0.1", "169.254.10.1"],
      "v6.example": ["fe80::1"],
      "far.example": ["203.0.113.9"],
      "home.example": ["127.0.0.1"],
    });
    for (const name of ["evil.example", "mixed.example", "v6.example", "far.example", "empty.example"])
      await assert.rejects(outboundTarget("t", `http://${name}:7700`, dns), { code: "URL_NOT_ALLOWED" }, name);
    const t = await outboundTarget("t", "http://home.example:7700", dns);
    assert.equal(t.address, "127.0.0.1", "the connection is pinned to the address checked");
    assert.equal(t.token, undefined);
  });

  test("addresses", () => {
    for (const a of ["169.254.169.254", "169.254.0.1", "fe80::1", "FEBF::1", "::ffff:169.254.1.1", "fd00:ec2::254", "100.100.100.200", "0.0.0.0", "::"])
      assert.ok(isForbiddenAddress(a), a);
    for (const a of ["127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1"]) assert.ok(isLoopbackAddress(a) && !isForbiddenAddress(a), a);
    for (const a of ["10.0.0.1", "192.168.1.1", "2001:db8::1"]) assert.ok(!isLoopbackAddress(a), a);
  });

  test("DRSG_ATTACH_ALLOW is checked: malformed entries are BAD_ENV", () => {
    const ok = attachAllowList({ DRSG_ATTACH_ALLOW: "https://drsg.example:7700=TEAM_TOKEN, http://10.0.0.5:7700" });
    assert.deepEqual([...ok.values()], [{ origin: "https://drsg.example:7700", tokenEnv: "TEAM_TOKEN" }, { origin: "http://10.0.0.5:7700" }]);
    for (const bad of ["ftp://x", "nota url", "https://x.example/path", "https://x.example=lower-case", "https://u:p@x.example"])
      assert.throws(() => attachAllowList({ DRSG_ATTACH_ALLOW: bad }), { code: "BAD_ENV" }, bad);
  });
});
