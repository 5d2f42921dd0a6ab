import { hasPermission } from '@meridian/contracts/rules/permissions';
import type { Config } from '../config';
import type { Actor } from './actor';

/** What the client reads first: the signed-in user (or null), feature flags and the limits it must honour. */
export function bootstrapData(config: Config, actor: Actor | null) {
  return {
    user: actor ? { userId: actor.userId, username: actor.username, firstName: actor.firstName, lastName: actor.lastName, email: actor.email, roles: actor.roles } : null,
    featureFlags: config.featureFlags,
    conf: {
      SQL_MAX_ROW: config.sqlMaxRow,
      DISPLAY_MAX_ROW: config.displayMaxRow,
      DEFAULT_SQLLAB_LIMIT: config.defaultSqllabLimit,
      SQLLAB_TIMEOUT: config.sqllabTimeoutSeconds,
      SQLLAB_ASYNC_TIME_LIMIT_SEC: config.sqllabAsyncTimeLimitSeconds,
      SUPERSET_WEBSERVER_TIMEOUT: config.chartQueryTimeoutSeconds,
    },
    canSqlLab: actor ? hasPermission(actor, 'can_sqllab', 'Superset') : false,
  };
}
