export default class Thing {}
