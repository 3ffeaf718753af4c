package io.quotaflow.ticket;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import io.quotaflow.records.Priority;
import io.quotaflow.records.Ticket;

/**
 * A validated ticket on its way through the dispatcher: what the internal repartition topic and
 * the dispatcher's stores hold, in five groups. Each field keeps its flat accessor ({@link #id()},
 * {@link #attempt()}, ...); a wither rebuilds only the group it changes.
 *
 * <p>Stored ({@link BinarySerde}) as the five groups, {@code {"identity":{..},"content":{..},"journey":{..},
 * "attempts":{..},"sizing":{..}}}; {@link WorkItemReader} also reads the flat form earlier versions stored
 * (the 21 fields as top-level properties), so their state and dispatch-topic records still restore.
 *
 * @param identity which ticket it is
 * @param content  the producer's record it carries
 * @param journey  where it entered, when, and where it is going
 * @param attempts what its attempts so far came to
 * @param sizing   how much of a call it takes
 */
@JsonDeserialize(using = WorkItemReader.class)
public record WorkItem(Identity identity, Content content, Journey journey, Attempts attempts, Sizing sizing) {

    public WorkItem {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(journey, "journey");
        attempts = attempts == null ? Attempts.NONE : attempts;
        sizing = sizing == null ? new Sizing(0, 0, 1) : sizing;
    }

    /**
     * A ticket as intake accepts it: {@code original} as the producer's whole record (no content key, no producer
     * headers), published when accepted, no deadline, on no particular route, no attempt yet.
     */
    public static WorkItem accepted(Identity identity, byte[] original, Origin origin, long acceptedAt, int tokens) {
        return new WorkItem(identity, new Content(original, original.length, null, List.of(), null),
                new Journey(origin, acceptedAt, acceptedAt, 0, Routed.NONE), Attempts.NONE, new Sizing(tokens, 0, 1));
    }

    /** The same item as on its {@code value}-th attempt (0: the first), not before any time, with no failure yet. */
    public WorkItem withAttempt(int value) {
        return with(new Attempts(value, 0, failure(), replayCount(), replayOf()));
    }

    /**
     * Which ticket it is.
     *
     * @param id       ticket id
     * @param priority its priority class (for a retry: the class of its origin topic)
     * @param tenant   the customer, for fair sharing within a class
     */
    public record Identity(String id, Priority priority, String tenant) {

        public Identity {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(priority, "priority");
            tenant = tenant == null || tenant.isBlank() ? Ticket.DEFAULT_TENANT : tenant;
        }
    }

    /**
     * The producer's record it carries.
     *
     * @param original       the bytes as the producer wrote them (re-sent unchanged to retry and dead-letter topics);
     *                       for a record too large to carry, a reduced ticket JSON (see {@link WorkItem#reduced()})
     * @param originalSize   size in bytes of the producer's record value
     * @param originalSha256 SHA-256 (hex) of the producer's record value: identifies its content
     * @param headers        the producer's own headers (bounded; {@code qf.*} never), kept on retries and dead letters
     * @param contentKey     hex SHA-256 of its normalised subject and body (the cache's content part), or null
     */
    public record Content(byte[] original, long originalSize, String originalSha256, List<Header> headers, String contentKey) {

        public Content {
            Objects.requireNonNull(original, "original");
            if (originalSha256 == null || originalSha256.isEmpty()) {
                originalSha256 = sha256(original);
                originalSize = original.length;
            }
            headers = headers == null ? List.of() : List.copyOf(headers);
        }
    }

    /**
     * Where it entered, when, and where it is going.
     *
     * @param origin      where the ticket first entered
     * @param enqueuedAt  epoch ms when quotaflow first accepted it (its age counts from here)
     * @param publishedAt epoch ms of the publication this copy is (its record's timestamp when intake first read it):
     *                    of two copies of one ticket on different routes, the later publication is the one answered
     *                    (docs/design.md, "Tenants"); 0 when unknown (state of an older version)
     * @param deadline    epoch ms by which it must be answered or handed off ({@code deadline} on the ticket, or
     *                    {@code deadline.<priority>} after intake); 0: none (docs/design.md, "Deadlines")
     * @param routed      the route it is on and, after a fallback, where from and why ({@link Routed#NONE}: the
     *                    routing rules decide)
     */
    public record Journey(Origin origin, long enqueuedAt, long publishedAt, long deadline, Routed routed) {

        public Journey {
            Objects.requireNonNull(origin, "origin");
            deadline = Math.max(0, deadline);
            routed = routed == null ? Routed.NONE : routed;
        }
    }

    /**
     * What its attempts so far came to.
     *
     * @param attempt     attempts consumed so far
     * @param notBefore   epoch ms before which it must not be dispatched (0: now)
     * @param failure     the last failure, if any
     * @param replayCount how many times operators replayed it from the dead-letter topic
     * @param replayOf    the dead-letter record it was replayed from ({@code partition:offset}), if any
     */
    public record Attempts(int attempt, long notBefore, FailureState failure, int replayCount, String replayOf) {

        /** Never attempted, never replayed. */
        public static final Attempts NONE = new Attempts(0, 0, null, 0, null);
    }

    /**
     * How much of a call it takes.
     *
     * @param tokens         estimated prompt tokens the ticket adds to a call
     * @param batchCap       most tickets it may share a call with (0: no limit; halved on context-length errors)
     * @param maxTokensBoost multiplier for its completion budget after a {@code finish_reason=length} (1: none)
     */
    public record Sizing(int tokens, int batchCap, int maxTokensBoost) {

        public Sizing {
            maxTokensBoost = Math.max(1, maxTokensBoost);
        }
    }

    /**
     * The route a ticket is on (docs/design.md, "Routes").
     *
     * @param route  the route's name, null until routed
     * @param from   the route it fell back from, or null
     * @param reason why it fell back ({@code halted}, {@code circuit-open}, {@code max-wait}, {@code context},
     *               {@code out-for-day}), or null
     */
    public record Routed(String route, String from, String reason) {

        /** Not routed yet. */
        public static final Routed NONE = new Routed(null, null, null);

        /** On {@code route} by the routing rules. */
        public static Routed to(String route) {
            return new Routed(route, null, null);
        }

        /** Whether it came to its route by a fallback. */
        @JsonIgnore
        public boolean fellBack() {
            return from != null;
        }
    }

    /** Where a ticket first entered quotaflow. */
    public record Origin(String topic, int partition, long offset) {
    }

    /** One producer header (a null value is kept as null). */
    public record Header(String key, byte[] value) {

        public Header {
            Objects.requireNonNull(key, "key");
        }

        /** Bytes it takes on a record: key and value. */
        @JsonIgnore
        public int size() {
            return key.getBytes(StandardCharsets.UTF_8).length + (value == null ? 0 : value.length);
        }
    }

    /**
     * The latest failure of a ticket.
     *
     * @param firstFailure epoch ms of its first failure
     * @param lastFailure  epoch ms of this failure
     * @param kind         error kind ({@code http-5xx}, {@code timeout}, {@code invalid-output}, ...)
     * @param status       HTTP status, 0 when there was none
     * @param message      truncated message, never a secret
     * @param callMs       time its failed model calls took, summed over its attempts so far
     * @param retryWaitMs  backoff its retries were given, summed over its attempts so far
     */
    public record FailureState(long firstFailure, long lastFailure, String kind, int status, String message, long callMs,
                               long retryWaitMs) {

        /** A failure with no time in calls or backoff counted. */
        public FailureState(long firstFailure, long lastFailure, String kind, int status, String message) {
            this(firstFailure, lastFailure, kind, status, message, 0, 0);
        }
    }

    // the flat accessors: each field where callers have always found it (documented on its group)

    public String id() {
        return identity.id();
    }
    public Priority priority() {
        return identity.priority();
    }
    public String tenant() {
        return identity.tenant();
    }
    public int tokens() {
        return sizing.tokens();
    }
    public byte[] original() {
        return content.original();
    }
    public Origin origin() {
        return journey.origin();
    }
    public long enqueuedAt() {
        return journey.enqueuedAt();
    }
    public int attempt() {
        return attempts.attempt();
    }
    public long notBefore() {
        return attempts.notBefore();
    }
    public FailureState failure() {
        return attempts.failure();
    }
    public int replayCount() {
        return attempts.replayCount();
    }
    public String replayOf() {
        return attempts.replayOf();
    }
    public int batchCap() {
        return sizing.batchCap();
    }
    public int maxTokensBoost() {
        return sizing.maxTokensBoost();
    }
    public long originalSize() {
        return content.originalSize();
    }
    public String originalSha256() {
        return content.originalSha256();
    }
    public List<Header> headers() {
        return content.headers();
    }
    public Routed routed() {
        return journey.routed();
    }
    public String contentKey() {
        return content.contentKey();
    }
    public long publishedAt() {
        return journey.publishedAt();
    }
    public long deadline() {
        return journey.deadline();
    }

    /** Time its failed calls took so far (0 before a failure). */
    @JsonIgnore
    public long failedCallMs() {
        return failure() == null ? 0 : failure().callMs();
    }

    /** Backoff its retries were given so far (0 before a failure). */
    @JsonIgnore
    public long retryWaitMs() {
        return failure() == null ? 0 : failure().retryWaitMs();
    }

    /**
     * The ticket's identity in key form ({@link io.quotaflow.records.TicketKey}): its id for the default
     * tenant, {@code tenant:id} otherwise. Stores, statuses, cancels and coalescing name a ticket by it,
     * so two tenants' tickets with one id never meet.
     */
    @JsonIgnore
    public String key() {
        return io.quotaflow.records.TicketKey.key(tenant(), id());
    }

    /** Whether {@link #original()} is a reduced form of a record value too large to carry. */
    @JsonIgnore
    public boolean reduced() {
        return content.originalSize() != content.original().length;
    }

    /** Whether {@code other} carries the same producer content at the same priority. */
    public boolean sameContent(WorkItem other) {
        return originalSha256().equals(other.originalSha256()) && priority() == other.priority();
    }

    public WorkItem withAttemptFailed(FailureState newFailure, long newNotBefore) {
        return with(new Attempts(attempt() + 1, newNotBefore, newFailure, replayCount(), replayOf()));
    }

    public WorkItem withFailure(FailureState newFailure) {
        return with(new Attempts(attempt(), 0, newFailure, replayCount(), replayOf()));
    }

    public WorkItem withBatchCap(int cap) {
        return with(new Sizing(tokens(), cap, maxTokensBoost()));
    }

    public WorkItem withMaxTokensBoost(int boost) {
        return with(new Sizing(tokens(), batchCap(), boost));
    }

    /** The same item with its estimated prompt tokens for another route's tokenizer. */
    public WorkItem withTokens(int value) {
        return with(new Sizing(value, batchCap(), maxTokensBoost()));
    }

    /** The same item, accepted earlier: an update keeps its place in the queue. */
    public WorkItem withEnqueuedAt(long value) {
        return with(new Journey(origin(), value, publishedAt(), deadline(), routed()));
    }

    /** The same item on {@code value}. */
    public WorkItem withRouted(Routed value) {
        return with(new Journey(origin(), enqueuedAt(), publishedAt(), deadline(), value));
    }

    /** The same item due by {@code value} (epoch ms; 0: no deadline). */
    public WorkItem withDeadline(long value) {
        return with(new Journey(origin(), enqueuedAt(), publishedAt(), value, routed()));
    }

    /** The same item carrying {@code value} as its producer headers. */
    public WorkItem withHeaders(List<Header> value) {
        return new WorkItem(identity, new Content(original(), originalSize(), originalSha256(), value, contentKey()),
                journey, attempts, sizing);
    }

    private WorkItem with(Attempts value) {
        return new WorkItem(identity, content, journey, value, sizing);
    }

    private WorkItem with(Sizing value) {
        return new WorkItem(identity, content, journey, attempts, value);
    }

    private WorkItem with(Journey value) {
        return new WorkItem(identity, content, value, attempts, sizing);
    }

    /** Whether it has a deadline. */
    @JsonIgnore
    public boolean hasDeadline() {
        return deadline() > 0;
    }

    /** Hex SHA-256 of {@code bytes}. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WorkItem w && id().equals(w.id()) && origin().equals(w.origin()) && attempt() == w.attempt()
                && originalSha256().equals(w.originalSha256()) && enqueuedAt() == w.enqueuedAt() && notBefore() == w.notBefore();
    }

    @Override
    public int hashCode() {
        return Objects.hash(id(), origin(), attempt(), originalSha256());
    }

    @Override
    public String toString() {
        return "WorkItem[id=" + id() + ", priority=" + priority() + ", tenant=" + tenant() + ", tokens=" + tokens() + ", bytes="
                + originalSize() + ", origin=" + origin() + ", attempt=" + attempt() + "]";
    }
}
