/**
 * What a decision on a wallet needs: the balance in cents. Small on purpose, so that it fits a snapshot row and a
 * wallet with a long history decides as fast as a new one (ADR 0006).
 */
export interface WalletState {
  balanceMinor: number;
}

export const INITIAL_WALLET_STATE: WalletState = Object.freeze({ balanceMinor: 0 });
