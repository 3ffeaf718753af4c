/**
 * Deadlines and explicit shedding (docs/design.md, "Deadlines and hand-off"): when a ticket must be
 * answered by ({@link Deadlines}), what happens to one that cannot be ({@link DeadlineAction}), the
 * settings ({@link DeadlineSettings}), and the pure decision over a route's waiting tickets
 * ({@link DeadlinePolicy}). The dispatcher carries the decisions out.
 */
package io.quotaflow.deadline;

import io.quotaflow.settings.DeadlineAction;
import io.quotaflow.settings.DeadlineSettings;
