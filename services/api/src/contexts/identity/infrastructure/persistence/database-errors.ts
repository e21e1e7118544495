export const EMAIL_UNIQUE_CONSTRAINT = 'users_email_unique';
export const PROFILE_ID_UNIQUE_CONSTRAINT = 'users_profile_id_unique';
