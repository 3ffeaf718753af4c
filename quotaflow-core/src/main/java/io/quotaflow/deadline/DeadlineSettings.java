package io.quotaflow.deadline;

import io.quotaflow.records.Priority;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Deadlines and waiting limits (docs/design.md, "Deadlines and hand-off").
 *
 * @param defaults per priority, the deadline of a ticket that carries none, counted from intake
 *                 ({@code deadline.<priority>}; absent: none)
 * @param action   what happens to a ticket that will miss its deadline and that no fallback can take ({@code deadline.action})
 * @param maxWait  per priority, the longest a ticket may be expected to wait for its call; one expected to wait
 *                 longer is shed ({@code queue.max-wait.<priority>}; absent: never)
 */
public record DeadlineSettings(Map<Priority, Duration> defaults, DeadlineAction action, Map<Priority, Duration> maxWait) {

    /** No default deadlines, hand-off for tickets that carry one, no waiting limit. */
    public static final DeadlineSettings DEFAULTS = new DeadlineSettings(Map.of(), DeadlineAction.HANDOFF, Map.of());

    public DeadlineSettings {
        defaults = copy(defaults, "deadline.");
        maxWait = copy(maxWait, "queue.max-wait.");
        Objects.requireNonNull(action, "action");
    }

    private static Map<Priority, Duration> copy(Map<Priority, Duration> in, String key) {
        if (in == null || in.isEmpty()) {
            return Map.of();
        }
        in.forEach((p, d) -> {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(key + p.wireName() + " must be a positive duration, got " + d);
            }
        });
        return Collections.unmodifiableMap(new EnumMap<>(in));
    }

    /** The same settings with {@code value} as the action. */
    public DeadlineSettings withAction(DeadlineAction value) {
        return new DeadlineSettings(defaults, value, maxWait);
    }

    /** The same settings with {@code value} as the default deadlines. */
    public DeadlineSettings withDefaults(Map<Priority, Duration> value) {
        return new DeadlineSettings(value, action, maxWait);
    }

    /** The same settings with {@code value} as the waiting limits. */
    public DeadlineSettings withMaxWait(Map<Priority, Duration> value) {
        return new DeadlineSettings(defaults, action, value);
    }
}
