package io.quotaflow.topology;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.settings.DispatcherSettings;

import io.quotaflow.cache.ContentKey;
import io.quotaflow.deadline.Deadlines;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.failure.BoundedValue;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.routing.RouteChooser;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.ReducedTicket;
import io.quotaflow.records.Ticket;
import io.quotaflow.records.TicketKey;
import io.quotaflow.records.TicketParser;
import io.quotaflow.ticket.WorkItem;
import io.quotaflow.tracing.Tracing;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.util.Optional;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.ticket.Publication;
import io.quotaflow.dispatch.ledger.LaneCommits;
import io.quotaflow.dispatch.ledger.Lanes;

/**
 * Parses and validates each input record, picks its route ({@link RouteChooser}: the rules, or
 * the route a retry returns to, along the context-fallback chain when it does not fit), estimates
 * its tokens with that route's tokenizer, and either re-keys it by the route's quota scope for the
 * dispatcher or rejects it to the dead-letter topic ({@code bad-input}, {@code too-large}) with its
 * original bytes.
 *
 * <p>Trust: on the input topics the record's own coordinates are its origin and a producer's
 * {@code qf.*} headers are ignored (only the replay pair that {@code dlq replay} writes counts);
 * records from the retry topic, which only quotaflow writes, carry their attempt state and origin
 * in {@code qf.*} headers. The producer's other headers travel with the ticket, within
 * {@link RecordLimits#maxHeaderBytes()}.
 *
 * <p>Size: a value over {@link RecordLimits#maxValueBytes()} travels as a {@link ReducedTicket}; a
 * dead letter of one carries its first bytes, size and SHA-256; nothing written can exceed the
 * producer's limit.
 */
final class IntakeProcessor implements Processor<String, byte[], String, IntakeResult> {

    /** Header of a cancel on the dispatch topic: the ticket id (its value is null). */

    /** Longest record key kept on a dead letter. */
    static final int MAX_KEY_CHARS = 1024;

    private final DispatcherSettings settings;
    private final DispatcherListener listener;
    private final String scope;
    private final RecordLimits limits;
    private final TenantCheck tenants;
    private final Tracing tracing;
    private ProcessorContext<String, IntakeResult> context;
    /** When an interactive ticket written to the lane asks for an early commit. */
    private final LaneCommits laneCommits = new LaneCommits();
    private RouteChooser routes;

    IntakeProcessor(DispatcherSettings settings, DispatcherListener listener, Tracing tracing) {
        this.settings = settings;
        this.tracing = tracing;
        this.listener = listener;
        this.scope = settings.scope();
        this.limits = settings.limits();
        this.tenants = new TenantCheck(settings.tenants().access(), settings.topics());
    }

    @Override
    public void init(ProcessorContext<String, IntakeResult> context) {
        this.context = context;
        // a ticket must fit alone: system prompt and framing + itself + its completion budget
        this.routes = new RouteChooser(settings.routing(), settings.batch());
    }

    @Override
    public void process(Record<String, byte[]> lane) {
        long now = context.currentSystemTimeMs();
        Optional<RecordMetadata> meta = context.recordMetadata();
        String topic = meta.map(RecordMetadata::topic).orElse("unknown");
        // the interactive input topic's records come dated an hour early, to go first (DispatchLanes)
        Record<String, byte[]> record = DispatchLanes.isLane(topic) ? lane.withTimestamp(DispatchLanes.publishedTime(topic, lane.timestamp()))
                : lane;
        WorkItem.Origin here = new WorkItem.Origin(topic, meta.map(RecordMetadata::partition).orElse(-1),
                meta.map(RecordMetadata::offset).orElse(-1L));
        boolean fromRetry = settings.topics().retry().equals(topic);
        if (record.value() == null) {
            cancel(record, topic, fromRetry);
            return;
        }
        Headers in = record.headers();
        IntakeHeaders qf = IntakeHeaders.decode(in, here, fromRetry, now, record.timestamp());
        WorkItem.Origin origin = qf.origin();
        FailureHeaders.ProducerHeaders producer = FailureHeaders.producerHeaders(in, limits.maxHeaderBytes());
        byte[] original = record.value() == null ? new byte[0] : record.value();

        TicketParser.Parsed parsed = TicketParser.parse(original);
        if (parsed instanceof TicketParser.Invalid invalid) {
            reject(record, original, origin, producer, now, ErrorKind.BAD_INPUT.wire(), invalid.reason());
            return;
        }
        Ticket claimed = ((TicketParser.Valid) parsed).ticket();
        // the tenant its source names (tenants.from), known or mapped; a ticket claiming another never goes on
        TenantCheck.Outcome tenant = tenants.resolve(claimed, record.key(), origin.topic(), fromRetry);
        if (tenant instanceof TenantCheck.Refused refused) {
            reject(record, original, origin, producer, now, refused.kind().wire(), refused.reason());
            return;
        }
        Ticket ticket = withTenant(claimed, ((TenantCheck.Tenant) tenant).name());
        Priority priority = settings.topics().priorityOf(origin.topic()).or(() -> tenants.priorityOf(origin.topic()))
                .orElse(ticket.priority().orElse(Priority.STANDARD));
        RouteChooser.Choice choice = routes.choose(priority, ticket.tenant(), qf.routed(),
                new ModelItem(io.quotaflow.records.TicketKey.of(ticket).key(), ticket.subject(), ticket.body()));
        if (choice instanceof RouteChooser.TooLarge large) {
            reject(record, original, origin, producer, now, ErrorKind.TOO_LARGE.wire(), "ticket needs about " + large.tokens()
                    + " prompt tokens; the context budget for one ticket on route " + large.route() + " is " + large.budget()
                    + (settings.routing().route(large.route()).map(r -> r.contextFallback() != null).orElse(false)
                    ? ", and no route of its context-fallback chain holds it" : ""));
            return;
        }
        accept(record, ticket, priority, (RouteChooser.Routed) choice, new Intake(qf, origin, producer, original, fromRetry), now);
    }

    /** {@code ticket} as {@code tenant}'s (itself when it already names it). */
    private static Ticket withTenant(Ticket ticket, String tenant) {
        return tenant.equals(ticket.tenant()) ? ticket
                : new Ticket(ticket.id(), ticket.subject(), ticket.body(), tenant, ticket.priority(), ticket.json());
    }

    /** What intake read of a record, beside its ticket. */
    private record Intake(IntakeHeaders qf, WorkItem.Origin origin, FailureHeaders.ProducerHeaders producer, byte[] original,
                          boolean fromRetry) {
    }

    /** A valid ticket on its route: reduced if too large to carry, its deadline taken, then on to its scope's dispatcher. */
    private void accept(Record<String, byte[]> record, Ticket ticket, Priority priority, RouteChooser.Routed route, Intake in, long now) {
        IntakeHeaders qf = in.qf();
        WorkItem.Origin origin = in.origin();
        FailureHeaders.ProducerHeaders producer = in.producer();
        byte[] original = in.original();
        boolean fromRetry = in.fromRetry();
        int tokens = route.tokens();
        byte[] carried = original;
        long size = original.length;
        String sha256 = null;
        if (qf.truncated()) {
            // a reduced ticket coming back: it stands for the producer's larger record
            size = qf.originalSize().orElse(original.length);
            sha256 = qf.originalSha256();
        } else if (original.length > limits.maxValueBytes()) {
            carried = ReducedTicket.of(ticket);
            sha256 = WorkItem.sha256(original);
            if (carried.length > limits.maxValueBytes()) {
                reject(record, original, origin, producer, now, ErrorKind.TOO_LARGE.wire(), "ticket text of " + carried.length
                        + " bytes exceeds records.max-value-bytes (" + limits.maxValueBytes() + ")");
                return;
            }
        }
        long deadline;
        try {
            deadline = Deadlines.of(ticket.json(), priority, qf.enqueuedAt(), settings.deadlines());
        } catch (IllegalArgumentException e) {
            reject(record, original, origin, producer, now, ErrorKind.BAD_INPUT.wire(), e.getMessage());
            return;
        }
        WorkItem item = new WorkItem(new WorkItem.Identity(ticket.id(), priority, ticket.tenant()),
                new WorkItem.Content(carried, size, sha256, producer.kept(), ContentKey.contentHash(ticket.subject(), ticket.body())),
                new WorkItem.Journey(origin, qf.enqueuedAt(), qf.publishedAt(), deadline, route.routed()),
                new WorkItem.Attempts(qf.attempt(), qf.notBefore(), qf.failure(), qf.replayCount(), qf.replayOf()),
                new WorkItem.Sizing(tokens, qf.batchCap(), qf.boost()));
        // its intake span, the child of the producer's traceparent: the item carries the span's context on
        item = tracing.intake(item, now);
        String target = route.route().scope();
        if (!fromRetry && settings.routing().scopes().size() > 1) {
            // every other scope hears of it first: a copy it holds of an older publication is withdrawn
            Publication publication = Publication.of(item, target);
            for (String other : settings.routing().scopes()) {
                if (!other.equals(target)) {
                    context.forward(new Record<String, IntakeResult>(other, new IntakeResult.Notice(publication), record.timestamp(),
                            publication.headers()));
                }
            }
        }
        context.forward(new Record<String, IntakeResult>(target, new IntakeResult.Accepted(item), record.timestamp(),
                new RecordHeaders()));
        if (Lanes.interactive(item.priority()) && laneCommits.due(now)) {
            // readable on the lane once this transaction commits: now, not at the next commit interval
            context.commit();
        }
    }

    /**
     * A tombstone: the producer cancels the ticket its key names ({@link TicketKey}: {@code tenant:id}, or
     * the id alone for the default tenant; docs/design.md, "Cancellation").
     * It goes to every dispatch partition, as a null value carrying the id in {@value #CANCEL_HEADER}.
     * A tombstone without a key, or on the retry topic (quotaflow never writes one there), is ignored.
     */
    private void cancel(Record<String, byte[]> record, String topic, boolean fromRetry) {
        if (fromRetry || record.key() == null || record.key().isBlank() || record.key().length() > MAX_KEY_CHARS) {
            return;
        }
        String key;
        try {
            // the key names (tenant, id): "1042" is the default tenant's, "acme:1042" acme's, and only that one is
            // cancelled; on a tenant's own topic (tenants.from=topic|principal) only that tenant's
            Optional<String> named = tenants.cancelKey(record.key(), topic);
            if (named.isEmpty()) {
                return;
            }
            key = named.get();
        } catch (IllegalArgumentException e) {
            return;
        }
        listener.cancelRequested();
        // one record to every dispatch partition: it reaches each scope's owner, also a scope this configuration lacks
        RecordHeaders headers = new RecordHeaders();
        headers.add(DispatchTopics.CANCEL_HEADER, key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        context.forward(new Record<String, IntakeResult>(DispatchTopics.EVERY_PARTITION, new IntakeResult.Cancel(key),
                record.timestamp(), headers));
    }

    private void reject(Record<String, byte[]> record, byte[] original, WorkItem.Origin origin,
                        FailureHeaders.ProducerHeaders producer, long now, String kind, String reason) {
        BoundedValue value = BoundedValue.of(original, limits.maxValueBytes());
        Headers headers = FailureHeaders.forRejectedInput(origin, now, kind, reason, producer, value,
                FailureHeaders.integer(record.headers(), DeadLetterHeaders.REPLAY_COUNT).orElse(0),
                FailureHeaders.string(record.headers(), DeadLetterHeaders.REPLAY_OF).orElse(null));
        String key = record.key() != null && record.key().length() > MAX_KEY_CHARS ? record.key().substring(0, MAX_KEY_CHARS) : record.key();
        context.forward(new Record<String, IntakeResult>(key, new IntakeResult.Rejected(value.bytes()), record.timestamp(), headers));
        listener.deadLettered(scope, kind);
    }
}
