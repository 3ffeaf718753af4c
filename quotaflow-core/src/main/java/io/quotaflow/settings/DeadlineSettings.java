package io.quotaflow.settings;

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
 * @param haltGrace while a route is halted, how long before the time its next halt probe could bring it back a
 *                  ticket's deadline may fall and the ticket still wait for that probe ({@code deadline.halt-grace}):
 *                  a ticket leaves unless its ETA from the probe's answer, plus this, is within its deadline; so one
 *                  that waits for a probe the provider refuses still leaves with at least this long to spare
 */
public record DeadlineSettings(Map<Priority, Duration> defaults, DeadlineAction action, Map<Priority, Duration> maxWait,
                               Duration haltGrace) {

    /** {@code deadline.halt-grace} unless set: 30 s, the least time people get for a ticket handed off after a refused probe. */
    public static final Duration DEFAULT_HALT_GRACE = Duration.ofSeconds(30);

    /** The longest {@code deadline.halt-grace}: a day (a bound, so that a slip such as {@code 30d} is refused at load). */
    public static final Duration MAX_HALT_GRACE = Duration.ofDays(1);

    /** No default deadlines, hand-off for tickets that carry one, no waiting limit, the default halt grace. */
    public static final DeadlineSettings DEFAULTS = new DeadlineSettings(Map.of(), DeadlineAction.HANDOFF, Map.of());

    public DeadlineSettings {
        defaults = copy(defaults, Keys.DEADLINE_PREFIX);
        maxWait = copy(maxWait, Keys.QUEUE_MAX_WAIT_PREFIX);
        Objects.requireNonNull(action, "action");
        haltGrace = haltGrace == null ? DEFAULT_HALT_GRACE : haltGrace;
        if (haltGrace.isNegative() || haltGrace.compareTo(MAX_HALT_GRACE) > 0) {
            throw new IllegalArgumentException("deadline.halt-grace must be a duration from 0 to 1d, got " + haltGrace);
        }
    }

    /** The given defaults, action and waiting limits, with the default halt grace. */
    public DeadlineSettings(Map<Priority, Duration> defaults, DeadlineAction action, Map<Priority, Duration> maxWait) {
        this(defaults, action, maxWait, DEFAULT_HALT_GRACE);
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
        return new DeadlineSettings(defaults, value, maxWait, haltGrace);
    }

    /** The same settings with {@code value} as the default deadlines. */
    public DeadlineSettings withDefaults(Map<Priority, Duration> value) {
        return new DeadlineSettings(value, action, maxWait, haltGrace);
    }

    /** The same settings with {@code value} as the waiting limits. */
    public DeadlineSettings withMaxWait(Map<Priority, Duration> value) {
        return new DeadlineSettings(defaults, action, value, haltGrace);
    }

    /** The same settings with {@code value} as the halt grace. */
    public DeadlineSettings withHaltGrace(Duration value) {
        return new DeadlineSettings(defaults, action, maxWait, value);
    }
}
