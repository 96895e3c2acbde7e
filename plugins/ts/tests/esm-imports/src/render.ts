export default function render() {}
