export const userService = {
  async getUser(id: string) {
    return this.normalize(id);
  },
  normalize: (id: string) => id.trim(),
  list: function () {
    return userService.getUser("x");
  },
};

class ApiClient {
  get(path: string) {
    return path;
  }
}

export const api = new ApiClient();
