import { Card } from "@/components/Card";

export function Page() {
  return <Card />;
}
