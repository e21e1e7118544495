export class SignOutCommand {
  constructor(readonly refreshToken: string | null) {}
}
