export function Button() {
  return <button />;
}

export function useButton() {
  return 1;
}
