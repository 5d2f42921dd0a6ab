import { z } from 'zod';

export const LoginSchema = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  provider: z.enum(['db', 'ldap']).default('db'),
  refresh: z.boolean().default(false),
});
export type Login = z.infer<typeof LoginSchema>;

export const UserCreateSchema = z.object({
  first_name: z.string().min(1).max(64),
  last_name: z.string().min(1).max(64),
  username: z.string().min(1).max(100),
  email: z.string().email().max(320),
  password: z.string().min(1),
  active: z.boolean().default(true),
  roles: z.array(z.number().int()).min(1),
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

export const UserUpdateSchema = UserCreateSchema.partial();
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

export const PasswordResetSchema = z.object({ password: z.string().min(1) });

/** A user as the users API answers it (never the password). */
export interface UserView {
  id: number;
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  active: boolean;
  last_login: string | null;
  login_count: number;
  fail_login_count: number;
  created_on: string;
  changed_on: string;
  roles: { id: number; name: string }[];
}

export interface RoleView {
  id: number;
  name: string;
  permissions: { id: number; permission_name: string; view_menu_name: string }[];
  user_ids: number[];
}

/** `/api/v1/me/` answer, as Superset's. */
export interface MeView {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  is_active: boolean;
  is_anonymous: boolean;
}

/** The roles Meridian seeds at every start: they keep their names, and their permissions are set by Meridian. */
export const BUILT_IN_ROLES = ['Admin', 'Alpha', 'Gamma', 'sql_lab', 'Public'] as const;

/** Whether a role is one Meridian seeds (it keeps its name; its permissions are set at every start). */
export const isBuiltInRole = (name: string | null | undefined): boolean => !!name && (BUILT_IN_ROLES as readonly string[]).includes(name);

/** A role's own field (`POST`/`PUT /api/v1/security/roles/`). */
export const RoleNameSchema = z.object({ name: z.string().trim().min(1).max(64) });
/** `POST /api/v1/security/roles/{id}/permissions`: the role's permission-view pairs, replacing the ones it had. */
export const RolePermissionsSchema = z.object({ permission_view_menu_ids: z.array(z.number().int()) });
/** `PUT /api/v1/security/roles/{id}/users`: the role's users, replacing the ones it had. */
export const RoleUsersSchema = z.object({ user_ids: z.array(z.number().int()) });
/** A permission or a resource (view menu) by name. */
export const SecurityNameSchema = z.object({ name: z.string().trim().min(1).max(250) });
/** A permission on a resource, by their ids. */
export const PermissionViewSchema = z.object({ permission_id: z.number().int(), view_menu_id: z.number().int() });
export const PermissionViewUpdateSchema = PermissionViewSchema.partial();

/** A role as `roles/search/` answers it. */
export interface RoleSearchView {
  id: number;
  name: string;
  permission_ids: number[];
  user_ids: number[];
}

/** A permission on a resource, as `permissions-resources/` answers it. */
export interface PermissionViewView {
  id: number;
  permission: { name: string };
  view_menu: { name: string };
}
