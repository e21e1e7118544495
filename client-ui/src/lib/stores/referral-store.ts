import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

interface ReferralStore {
  referralToken: string | null;
  setReferralToken: (referralToken: string) => void;
  clear: () => void;
}

/**
 * The referral code a visitor arrived with, persisted under the `referral` key so it survives a detour through
 * other pages before they finally sign up.
 */
export const useReferralStore = create<ReferralStore>()(
  persist(
    (set) => ({
      referralToken: null,
      setReferralToken: (referralToken) => set({ referralToken }),
      clear: () => set({ referralToken: null }),
    }),
    {
      name: 'referral',
      storage: createJSONStorage(() => localStorage),
      partialize: ({ referralToken }) => ({ referralToken }),
    },
  ),
);
