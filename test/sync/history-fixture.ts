// A scripted repository history for the sync tests: a small TypeScript + Python shop with 15+
// commits — a lightweight and an annotated tag, a feature branch merged with --no-ff, a rename, a
// delete, a symbol moved between files, a rebase, a remote-tracking branch, a binary file, a
// symlink and a submodule. Dates are fixed (one day apart from 2024-01-01), so shas are stable.
import { join } from "node:path";
import { git, makeRepo } from "../git/fixture.js";

export const PRICE_V1 = `/** The price of an item. */
export function price(item: string): number {
  return item.length;
}
`;

export const PRICE_V2 = `/** The price of an item, doubled. */
export function price(item: string): number {
  const base = item.length;
  return base * 2;
}
`;

const CART = (importFrom: string, extra = "") => `import { price } from "${importFrom}";

export class Cart {
  items: string[] = [];
  add(item: string): number {
    this.items.push(item);
    return price(item);
  }${extra}
}
`;

export interface FixtureHistory {
  dir: string;
  /** Commit shas by step name, in the order made. */
  sha: Record<string, string>;
  /** Every commit made on the way, in order (for folding through them all). */
  order: string[];
}

/** Build the fixture in `dir` (created) with a submodule repository at `subDir`. */
export function makeShopHistory(dir: string, subDir: string): FixtureHistory {
  const sha: Record<string, string> = {};
  const order: string[] = [];
  const step = (name: string, c: Parameters<typeof makeRepo>[1][number]) => {
    const [s] = makeRepo(dir, [c]);
    sha[name] = s!;
    order.push(s!);
  };
  makeRepo(subDir, [{ files: { "lib.ts": "export const sub = 1;\n" }, message: "sub" }]);

  step("base", {
    files: {
      "package.json": JSON.stringify({ name: "shop", version: "1.0.0" }),
      "src/price.ts": PRICE_V1,
      "src/cart.ts": CART("./price"),
      "shop/__init__.py": "",
      "shop/util.py": "def helper(x):\n    return x\n",
      "shop/basket.py": "from shop.util import helper\n\n\ndef fill(x):\n    return helper(x)\n",
    },
    message: "base: cart and price",
    tag: "v0.1",
  });
  step("price2", { files: { "src/price.ts": PRICE_V2 }, message: "price doubles" });
  step("discount", {
    files: { "src/discount.ts": "export function discount(p: number): number {\n  return p * 0.9;\n}\n" },
    message: "add discount",
  });
  step("feature", {
    branch: "feature",
    files: { "src/tax.ts": "export function tax(p: number): number {\n  return p * 1.2;\n}\n" },
    message: "feature: tax",
  });
  step("docs", {
    branch: "main",
    files: { "README.md": "# shop\n", "assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) },
    message: "docs and logo",
  });
  step("merge", { merge: "feature", files: {}, message: "merge feature", tag: "v1.0", tagMessage: "release 1.0" });
  step("rename", {
    files: {
      "shop/util.py": null,
      "shop/helpers.py": "def helper(x):\n    return x\n",
      "shop/basket.py": "from shop.helpers import helper\n\n\ndef fill(x):\n    return helper(x)\n",
    },
    message: "rename util to helpers",
  });
  step("total", {
    files: { "src/cart.ts": CART("./price", "\n  total(): number {\n    return this.items.length;\n  }") },
    message: "cart total",
  });
  step("delete", { files: { "src/discount.ts": null }, message: "delete discount" });
  step("move", {
    files: {
      "src/cart.ts": CART("./pricing"),
      "src/price.ts": null,
      "src/pricing.ts": `${PRICE_V2}\nexport function total(items: string[]): number {\n  return items.length;\n}\n`,
    },
    message: "move price and total into pricing",
  });
  step("topic", {
    branch: "topic",
    files: { "src/coupon.ts": 'import { price } from "./pricing";\n\nexport function coupon(): number {\n  return price("c") - 1;\n}\n' },
    message: "topic: coupon",
  });
  step("main-more", { branch: "main", files: { "shop/basket.py": "from shop.helpers import helper\n\n\ndef fill(x):\n    return helper(x) + 1\n" }, message: "fill adds one" });
  // Rebase topic onto main (dates fixed so the rewritten commit is stable), then back to main.
  git(dir, ["checkout", "-q", "topic"]);
  git(dir, ["rebase", "-q", "main"], 1704110400 + 12 * 86400);
  sha.rebased = git(dir, ["rev-parse", "HEAD"]);
  order.push(sha.rebased);
  git(dir, ["checkout", "-q", "main"]);
  order.push(git(dir, ["rev-parse", "HEAD"]));
  step("links", {
    files: { "src/alias.ts": { symlink: "pricing.ts" } },
    message: "alias link",
  });
  git(dir, ["submodule", "add", "-q", subDir, "deps/sub"], 1704110400 + 14 * 86400);
  git(dir, ["commit", "-q", "-m", "add submodule"], 1704110400 + 14 * 86400);
  sha.submodule = git(dir, ["rev-parse", "HEAD"]);
  order.push(sha.submodule);
  step("last", { files: { "src/cart.ts": CART("./pricing", "\n  clear(): void {\n    this.items = [];\n  }") }, message: "cart clear", ts: 1704110400 + 15 * 86400 });
  git(dir, ["update-ref", "refs/remotes/origin/main", sha.merge!]);
  return { dir, sha, order };
}

export function shopDirs(root: string): { dir: string; subDir: string } {
  return { dir: join(root, "shop"), subDir: join(root, "subrepo") };
}
