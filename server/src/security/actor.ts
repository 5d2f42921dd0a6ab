import type { RuleUser, UserRoles } from '@meridian/contracts/rules/permissions';

/** The signed-in user every service method takes first; shaped for the contracts' permission rules. */
export interface Actor extends RuleUser {
  userId: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  roles: UserRoles;
}
