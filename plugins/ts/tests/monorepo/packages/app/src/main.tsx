import { Button } from "@acme/ui";
import { Engine } from "@acme/core";
import { add } from "@acme/core/math";
import { useButton } from "@acme/ui/src/button";
import { useState } from "react";
import { Other } from "@acme/other";

export function App() {
  const [n] = useState(0);
  new Engine().run();
  add(n, 1);
  useButton();
  Other();
  return <Button />;
}
