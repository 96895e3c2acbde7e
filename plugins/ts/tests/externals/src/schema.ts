import { z } from "zod";
import express, { Router } from "express";
import * as path from "node:path";
import { readFile } from "fs/promises";
import { Button } from "@acme/ui";

export const schema = z.record(z.string());

export function build() {
  const r = Router();
  const app = express();
  path.join("a", "b");
  readFile("x");
  return Button();
}
