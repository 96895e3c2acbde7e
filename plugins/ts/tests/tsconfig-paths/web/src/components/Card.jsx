export function Card() {
  return <div />;
}
