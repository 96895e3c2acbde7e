import { Injectable } from "@nestjs/common";

@Injectable()
export class MailService {
  async send(to: string) {
    return to;
  }
}
