package io.quotaflow.dlq;

import io.quotaflow.topology.Topics;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Which dead letters {@code dlq show} prints: by key, by position, by kind (each an OR of its
 * values, the three ANDed; an empty set accepts everything), at most {@code max} of them.
 * Immutable; build with {@link #builder()}.
 *
 * @param keys      exact record keys (ticket ids)
 * @param positions dead-letter positions: {@code partition:offset}, or an offset on any partition
 * @param kinds     {@code qf.error.kind} values
 * @param max       most dead letters printed (at least 1)
 * @param topic     the dead-letter topic
 */
public record DeadLetterQuery(Set<String> keys, List<Position> positions, Set<String> kinds, int max, String topic) {

    public static final int DEFAULT_MAX = 10;

    /** One dead letter's place: {@code partition} null for "any partition". */
    public record Position(Integer partition, long offset) {
        public Position {
            if (partition != null && partition < 0 || offset < 0) {
                throw new IllegalArgumentException("offset must be partition:offset or offset, both >= 0");
            }
        }

        /**
         * {@code 3:1042} (partition 3, offset 1042) or {@code 1042} (offset 1042 on any partition).
         *
         * @throws IllegalArgumentException for anything else
         */
        public static Position parse(String text) {
            String t = Objects.requireNonNull(text, "text").strip();
            int colon = t.indexOf(':');
            try {
                return colon < 0 ? new Position(null, Long.parseLong(t))
                        : new Position(Integer.parseInt(t.substring(0, colon)), Long.parseLong(t.substring(colon + 1)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("offset must be partition:offset (3:1042) or an offset (1042), was: "
                        + text);
            }
        }

        boolean matches(int p, long o) {
            return o == offset && (partition == null || partition == p);
        }

        @Override
        public String toString() {
            return (partition == null ? "*" : partition.toString()) + ":" + offset;
        }
    }

    public DeadLetterQuery {
        keys = Collections.unmodifiableSet(new LinkedHashSet<>(Objects.requireNonNull(keys, "keys")));
        positions = List.copyOf(Objects.requireNonNull(positions, "positions"));
        kinds = Collections.unmodifiableSet(new LinkedHashSet<>(Objects.requireNonNull(kinds, "kinds")));
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1: " + max);
        }
        Objects.requireNonNull(topic, "topic");
        if (topic.isBlank()) {
            throw new IllegalArgumentException("topic must not be blank");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether the dead letter at {@code partition}:{@code offset} with this key and kind is asked for. */
    public boolean matches(int partition, long offset, String key, String kind) {
        if (!keys.isEmpty() && (key == null || !keys.contains(key))) {
            return false;
        }
        if (!kinds.isEmpty() && (kind == null || !kinds.contains(kind.strip()))) {
            return false;
        }
        return positions.isEmpty() || positions.stream().anyMatch(p -> p.matches(partition, offset));
    }

    /** Whether {@code partition} can hold an asked-for dead letter at all. */
    boolean reads(int partition) {
        return positions.isEmpty() || positions.stream().anyMatch(p -> p.partition() == null || p.partition() == partition);
    }

    /** The lowest asked-for offset on {@code partition}; empty when positions do not narrow it. */
    OptionalLong firstOffset(int partition) {
        return positions.stream().filter(p -> p.partition() == null || p.partition() == partition)
                .mapToLong(Position::offset).min();
    }

    /** One past the highest asked-for offset on {@code partition}; empty when positions do not narrow it. */
    OptionalLong endOffset(int partition) {
        OptionalLong last = positions.stream().filter(p -> p.partition() == null || p.partition() == partition)
                .mapToLong(Position::offset).max();
        return last.isPresent() ? OptionalLong.of(last.getAsLong() + 1) : OptionalLong.empty();
    }

    /** The filters in words; {@code none}. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        if (!keys.isEmpty()) {
            sb.append("key in ").append(keys);
        }
        if (!positions.isEmpty()) {
            sb.append(sb.length() > 0 ? ", " : "").append("offset in ").append(positions);
        }
        if (!kinds.isEmpty()) {
            sb.append(sb.length() > 0 ? ", " : "").append("kind in ").append(kinds);
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private final Set<String> keys = new LinkedHashSet<>();
        private final List<Position> positions = new java.util.ArrayList<>();
        private final Set<String> kinds = new LinkedHashSet<>();
        private int max = DEFAULT_MAX;
        private String topic = Topics.DLQ.name();

        private Builder() {
        }

        public Builder keys(Collection<String> values) {
            keys.addAll(values);
            return this;
        }

        /** Each {@code partition:offset} or {@code offset}; see {@link Position#parse}. */
        public Builder offsets(Collection<String> values) {
            values.forEach(v -> positions.add(Position.parse(v)));
            return this;
        }

        public Builder kinds(Collection<String> values) {
            values.forEach(v -> kinds.add(v.strip()));
            return this;
        }

        public Builder max(int max) {
            this.max = max;
            return this;
        }

        public Builder topic(String topic) {
            this.topic = topic;
            return this;
        }

        public DeadLetterQuery build() {
            return new DeadLetterQuery(keys, positions, kinds, max, topic);
        }
    }
}
