// One sigma renderer over a graphology graph, shared by the explorer and the map: nodes coloured
// by label (or by the caller), edges styled by type with an arrow head, click events passed on.
// Sizes are screen pixels (sigma 4 reads them in graph units by default). Sigma is created lazily, so a view never drawn costs no WebGL context.
import Graph from "graphology";
import Sigma from "sigma";
import { extremityArrow, layerDashed, layerPlain } from "sigma/rendering";

export type NodeAttrs = { x: number; y: number; size: number; color: string; label: string; [k: string]: unknown };
export type EdgeAttrs = { size: number; color: string; [k: string]: unknown };

export type ViewGraph = Graph<NodeAttrs, EdgeAttrs>;

export function newGraph(): ViewGraph {
  return new Graph<NodeAttrs, EdgeAttrs>({ multi: true, type: "directed", allowSelfLoops: true });
}

export class GraphView {
  graph: ViewGraph = newGraph();
  private sigma: Sigma<NodeAttrs, EdgeAttrs> | undefined;
  private resizing: ResizeObserver | undefined;
  onClick: (node: string) => void = () => {};
  onStage: () => void = () => {};

  constructor(readonly container: HTMLElement) {}

  /**
   * Swap in a whole new graph: sigma indexes it once, where thousands of single additions to
   * the graph it watches would each be an event it handles.
   */
  replace(g: ViewGraph): void {
    this.graph = g;
    this.sigma?.setGraph(g);
  }

  /** Draw (or refresh) what the graph holds; resolves after the frame that shows it. */
  draw(): Promise<void> {
    if (!this.sigma) {
      this.sigma = new Sigma<NodeAttrs, EdgeAttrs>(this.graph, this.container, {
        primitives: {
          edges: {
            extremities: [extremityArrow()],
            // Per-edge dash pattern (EDGE_STYLES in dom.ts): a solid edge is drawn by the plain layer
            // (the dashed one draws nothing at gapSize 0); a dashed edge's plain colour is transparent,
            // so its gaps show the page.
            variables: {
              plainColor: { type: "color", default: "#cccccc" },
              dashSize: { type: "number", default: 1 },
              gapSize: { type: "number", default: 0 },
            },
            layers: [
              layerPlain({ color: { attribute: "plainColor" } }),
              layerDashed({ dashSize: { attribute: "dashSize", mode: "pixels" }, gapSize: { attribute: "gapSize", mode: "pixels" } }),
            ],
          },
        },
        styles: {
          edges: {
            head: "arrow",
            size: { attribute: "size", defaultValue: 1 },
            color: { attribute: "color", defaultValue: "#ccc" },
            plainColor: { attribute: "plainColor", defaultValue: "#cccccc" },
            dashSize: { attribute: "dashSize", defaultValue: 1 },
            gapSize: { attribute: "gapSize", defaultValue: 0 },
          },
        },
        settings: { itemSizesReference: "screen", allowInvalidContainer: true, labelDensity: 0.6, labelRenderedSizeThreshold: 6, hideEdgesOnMove: true, zoomToSizeRatioFunction: (r: number) => Math.sqrt(r) },
      } as never);
      this.sigma.on("clickNode", ({ node }) => this.onClick(node));
      this.sigma.on("clickStage", () => this.onStage());
      // Sigma follows the window's size only: when the container changes without the window (the
      // inspector opening beside it), the canvases keep the old size and draw past the container.
      this.resizing = new ResizeObserver(() => {
        this.sigma?.resize();
        this.sigma?.refresh();
      });
      this.resizing.observe(this.container);
    } else this.sigma.refresh();
    return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  }

  /** Where each node is drawn, in the container's own pixels, beside the container's size (the browser tests check nothing is drawn outside it). */
  placement(): { width: number; height: number; nodes: { node: string; x: number; y: number }[] } {
    const { width, height } = this.container.getBoundingClientRect();
    const sigma = this.sigma;
    if (!sigma) return { width, height, nodes: [] };
    return { width, height, nodes: this.graph.mapNodes((node, a) => ({ node, ...sigma.graphToViewport({ x: a.x, y: a.y }) })) };
  }

  reset(): void {
    this.sigma?.getCamera().reset({ duration: 200 });
  }

  kill(): void {
    this.resizing?.disconnect();
    this.resizing = undefined;
    this.sigma?.kill();
    this.sigma = undefined;
  }
}
