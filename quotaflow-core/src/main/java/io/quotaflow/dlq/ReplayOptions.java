package io.quotaflow.dlq;

import io.quotaflow.settings.TopicNames;
import io.quotaflow.topology.Topics;

import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a {@link DeadLetterReplayer} replays and how. Immutable; the canonical constructor
 * validates, so an instance is always usable. Build with {@link #builder()}.
 *
 * <p>A dead letter is <em>selected</em> when it passes every filter given: its record timestamp in
 * {@code [since, until)}, its {@code qf.error.kind} in {@code kinds}, its {@code qf.error.status}
 * in {@code statuses} and its key in {@code keys} (an empty set accepts everything). A selected
 * record whose {@code qf.replay.count} is at least {@code maxReplays} is skipped (loop protection), and
 * so is one of a kind that cannot succeed unchanged ({@link ForceRule}) unless {@code force}.
 *
 * @param since         replay records whose timestamp is at or after this instant; null = no lower bound
 * @param until         replay records whose timestamp is before this instant; null = no upper bound
 * @param kinds         accepted {@code qf.error.kind} values; empty = any
 * @param statuses      accepted {@code qf.error.status} values (decimal integers); empty = any
 * @param keys          accepted record keys (exact, UTF-8); empty = any
 * @param dryRun        only count what would be replayed; write nothing, commit no offsets
 * @param ratePerSecond at most this many records written per second; 0 = unlimited (the default: the
 *                      pipeline's limiter paces the model calls the replayed tickets cause)
 * @param groupId       consumer group whose committed offsets mark the progress of the replay; the
 *                      builder's default is {@link #defaultGroup(TopicNames)} of the dead-letter
 *                      topic's deployment ({@code <topics.prefix>quotaflow-dlq-replay})
 * @param maxReplays    skip records already replayed this many times or more (≥ 1)
 * @param reset         start from the beginning of the dead-letter topic instead of the group's
 *                      committed offsets
 * @param maxRecords    stop after replaying this many records ({@link Long#MAX_VALUE} = no limit)
 * @param dlqTopic      the dead-letter topic to read
 * @param force         replay dead letters of the kinds {@link ForceRule} names too
 */
public record ReplayOptions(
        Instant since,
        Instant until,
        Set<String> kinds,
        Set<String> statuses,
        Set<String> keys,
        boolean dryRun,
        double ratePerSecond,
        String groupId,
        int maxReplays,
        boolean reset,
        long maxRecords,
        String dlqTopic,
        boolean force) {

    /** The default replay group of an unprefixed deployment; see {@link #defaultGroup(TopicNames)}. */
    public static final String DEFAULT_GROUP = "quotaflow-dlq-replay";
    /** No rate limit: the pipeline's quota limiter, not the replay, paces the calls. */
    public static final double DEFAULT_RATE = 0;
    public static final int DEFAULT_MAX_REPLAYS = 3;

    private static final Pattern STATUS = Pattern.compile("\\d{1,3}");

    public ReplayOptions {
        kinds = normalized("kind", kinds);
        statuses = normalized("status", statuses);
        keys = Collections.unmodifiableSet(new LinkedHashSet<>(Objects.requireNonNull(keys, "keys")));
        for (String key : keys) {
            Objects.requireNonNull(key, "keys must not contain null");
        }
        for (String status : statuses) {
            if (!STATUS.matcher(status).matches()) {
                throw new IllegalArgumentException("status must be an HTTP status code (0 for input rejected before any "
                        + "call), was: " + status);
            }
        }
        if (since != null && until != null && !since.isBefore(until)) {
            throw new IllegalArgumentException("since (" + since + ") must be before until (" + until + ")");
        }
        if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be >= 0 records per second (0 = unlimited): " + ratePerSecond);
        }
        Objects.requireNonNull(groupId, "groupId");
        if (groupId.isBlank()) {
            throw new IllegalArgumentException("group must not be blank");
        }
        if (maxReplays < 1) {
            throw new IllegalArgumentException("max-replays must be >= 1: " + maxReplays);
        }
        if (maxRecords < 1) {
            throw new IllegalArgumentException("maxRecords must be >= 1: " + maxRecords);
        }
        Objects.requireNonNull(dlqTopic, "dlqTopic");
        if (dlqTopic.isBlank()) {
            throw new IllegalArgumentException("dlqTopic must not be blank");
        }
    }

    /**
     * Defaults: no filter, not a dry run, no rate limit, no --force, max 3 replays, and the group
     * {@link #defaultGroup(TopicNames)} of the dead-letter topic's deployment.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The replay group of a deployment when none is given: {@value #DEFAULT_GROUP} under its
     * {@code topics.prefix} ({@code team-a.quotaflow-dlq-replay}), as its application id is. The
     * group names the replay's {@link #transactionalId() transactional id} too, so the replays of
     * two deployments sharing a cluster never fence each other.
     */
    public static String defaultGroup(TopicNames topics) {
        return Objects.requireNonNull(topics, "topics").name(DEFAULT_GROUP);
    }

    public Builder toBuilder() {
        return new Builder().since(since).until(until).kinds(kinds).statuses(statuses).keys(keys).dryRun(dryRun)
                .ratePerSecond(ratePerSecond).groupId(groupId).maxReplays(maxReplays).reset(reset)
                .maxRecords(maxRecords).dlqTopic(dlqTopic).force(force);
    }

    /**
     * The producer's {@code transactional.id}: {@code quotaflow-dlq-replay-<group>}. One per group:
     * a replay fences any older replay of its group with it ({@link DeadLetterReplayer}).
     */
    public String transactionalId() {
        return "quotaflow-dlq-replay-" + groupId;
    }

    /** Whether a record with these attributes passes the filters (null attributes match no filter on them). */
    public boolean matches(long timestampMs, String kind, String status, String key) {
        if (since != null && timestampMs < since.toEpochMilli()) {
            return false;
        }
        if (until != null && timestampMs >= until.toEpochMilli()) {
            return false;
        }
        if (!kinds.isEmpty() && (kind == null || !kinds.contains(kind.strip()))) {
            return false;
        }
        if (!statuses.isEmpty() && (status == null || !statuses.contains(status.strip()))) {
            return false;
        }
        return keys.isEmpty() || (key != null && keys.contains(key));
    }

    /** Whether any filter is set. */
    public boolean filtered() {
        return since != null || until != null || !kinds.isEmpty() || !statuses.isEmpty() || !keys.isEmpty();
    }

    /** The filters in words, e.g. {@code kind in [retries-exhausted], since 2026-11-30T06:00:00Z}; {@code none}. */
    public String describeFilters() {
        StringBuilder sb = new StringBuilder();
        if (since != null) {
            append(sb, "since " + since);
        }
        if (until != null) {
            append(sb, "until " + until);
        }
        if (!kinds.isEmpty()) {
            append(sb, "kind in " + kinds);
        }
        if (!statuses.isEmpty()) {
            append(sb, "status in " + statuses);
        }
        if (!keys.isEmpty()) {
            append(sb, keys.size() == 1 ? "key " + keys.iterator().next() : keys.size() + " keys");
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    private static void append(StringBuilder sb, String part) {
        if (sb.length() > 0) {
            sb.append(", ");
        }
        sb.append(part);
    }

    private static Set<String> normalized(String what, Set<String> values) {
        Objects.requireNonNull(values, what + "s");
        Set<String> out = new LinkedHashSet<>();
        for (String v : values) {
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException(what + " must not be blank");
            }
            out.add(v.strip());
        }
        return Collections.unmodifiableSet(out);
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private Instant since;
        private Instant until;
        private Set<String> kinds = Set.of();
        private Set<String> statuses = Set.of();
        private Set<String> keys = Set.of();
        private boolean dryRun;
        private double ratePerSecond = DEFAULT_RATE;
        /** Null: {@link #defaultGroup(TopicNames)} of the dead-letter topic's deployment. */
        private String groupId;
        private int maxReplays = DEFAULT_MAX_REPLAYS;
        private boolean reset;
        private long maxRecords = Long.MAX_VALUE;
        private String dlqTopic = Topics.DLQ.name();
        private boolean force;

        private Builder() {
        }

        public Builder since(Instant since) {
            this.since = since;
            return this;
        }

        public Builder until(Instant until) {
            this.until = until;
            return this;
        }

        public Builder kinds(Collection<String> kinds) {
            this.kinds = new LinkedHashSet<>(kinds);
            return this;
        }

        public Builder kinds(String... kinds) {
            return kinds(java.util.List.of(kinds));
        }

        public Builder statuses(Collection<String> statuses) {
            this.statuses = new LinkedHashSet<>(statuses);
            return this;
        }

        public Builder statuses(String... statuses) {
            return statuses(java.util.List.of(statuses));
        }

        public Builder keys(Collection<String> keys) {
            this.keys = new LinkedHashSet<>(keys);
            return this;
        }

        public Builder keys(String... keys) {
            return keys(java.util.List.of(keys));
        }

        public Builder dryRun(boolean dryRun) {
            this.dryRun = dryRun;
            return this;
        }

        /** Records written per second at most; 0 = unlimited. */
        public Builder ratePerSecond(double ratePerSecond) {
            this.ratePerSecond = ratePerSecond;
            return this;
        }

        /** The replay group; null for the default, {@link #defaultGroup(TopicNames)} of the dead-letter topic's deployment. */
        public Builder groupId(String groupId) {
            this.groupId = groupId;
            return this;
        }

        public Builder maxReplays(int maxReplays) {
            this.maxReplays = maxReplays;
            return this;
        }

        public Builder reset(boolean reset) {
            this.reset = reset;
            return this;
        }

        public Builder maxRecords(long maxRecords) {
            this.maxRecords = maxRecords;
            return this;
        }

        public Builder dlqTopic(String dlqTopic) {
            this.dlqTopic = dlqTopic;
            return this;
        }

        /** Replay the kinds {@link ForceRule} holds back too. */
        public Builder force(boolean force) {
            this.force = force;
            return this;
        }

        public ReplayOptions build() {
            String group = groupId != null ? groupId
                    : defaultGroup(dlqTopic == null ? TopicNames.DEFAULT : TopicNames.ofDlq(dlqTopic));
            return new ReplayOptions(since, until, kinds, statuses, keys, dryRun, ratePerSecond, group, maxReplays,
                    reset, maxRecords, dlqTopic, force);
        }
    }
}
