import { Ctx, ParseStatus } from "./status.js";
const loadStatus = () => import("./status.js");
export class V {
  process(): { status: ParseStatus; ctx: Ctx; maybe?: Ctx } {
    return { status: new ParseStatus(), ctx: new Ctx() };
  }
  async run(): Promise<void> {
    const { status, ctx: c, maybe } = this.process();
    status.dirty();
    c.log();
    maybe?.log();
    const { make } = await loadStatus();
    make().log();
    const { go: g } = await import("./status.js");
    g();
    const mod = await import("./status.js");
    mod.go();
  }
}
