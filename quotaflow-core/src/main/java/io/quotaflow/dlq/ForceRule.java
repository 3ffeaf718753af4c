package io.quotaflow.dlq;

import io.quotaflow.failure.ErrorKind;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The dead-letter kinds that cannot succeed when replayed unchanged (docs/design.md, Failures):
 * intake rejects the same bytes again and dead-letters them at once. A replay skips and counts
 * them unless {@code --force} (after the input was fixed elsewhere, or the context window grew).
 */
public final class ForceRule {

    private static final Map<String, String> WHY = Map.of(
            ErrorKind.BAD_INPUT.wire(), "the value is not a valid ticket, so intake would dead-letter "
                    + "the same bytes again; fix the ticket and publish it anew",
            ErrorKind.TOO_LARGE.wire(), "the ticket alone exceeds the model's context window, so it "
                    + "would be dead-lettered again unless the route's context (or context-fallback) grew");

    private ForceRule() {
    }

    /** The kinds a replay holds back without {@code --force}. */
    public static Set<String> kinds() {
        return WHY.keySet();
    }

    /** Whether a dead letter of {@code kind} (null: none) needs {@code --force}. */
    public static boolean needsForce(String kind) {
        return kind != null && WHY.containsKey(kind.strip());
    }

    /** Why {@code kind} needs {@code --force}; empty for kinds that do not. */
    public static Optional<String> reason(String kind) {
        return kind == null ? Optional.empty() : Optional.ofNullable(WHY.get(kind.strip()));
    }
}
