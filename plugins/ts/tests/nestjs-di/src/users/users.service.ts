import { Injectable } from "@nestjs/common";
import { InjectRepository } from "@nestjs/typeorm";
import { Repository } from "typeorm";
import { MailService } from "./mail.service";
import { UserEntity } from "./user.entity";

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>,
    private readonly mailer: MailService,
  ) {}

  async findAll(): Promise<UserEntity[]> {
    return this.repo.find();
  }

  async create(email: string): Promise<UserEntity> {
    const u = this.repo.create({ email });
    await this.mailer.send(u.email);
    return u;
  }
}
