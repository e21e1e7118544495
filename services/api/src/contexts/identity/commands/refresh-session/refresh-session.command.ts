export class RefreshSessionCommand {
  constructor(readonly refreshToken: string | null) {}
}
