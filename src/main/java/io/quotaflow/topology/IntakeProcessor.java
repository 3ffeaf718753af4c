package io.quotaflow.topology;

import io.quotaflow.config.DispatcherSettings;

import io.quotaflow.config.RecordLimits;
import io.quotaflow.failure.BoundedValue;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.model.ModelItem;
import io.quotaflow.model.PromptBuilder;
import io.quotaflow.ticket.Priority;
import io.quotaflow.ticket.ReducedTicket;
import io.quotaflow.ticket.Ticket;
import io.quotaflow.ticket.TicketParser;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Parses and validates each input record, estimates its tokens, and either re-keys it by quota
 * scope for the dispatcher or rejects it to the dead-letter topic ({@code bad-input},
 * {@code too-large}) with its original bytes.
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

    /** Longest record key kept on a dead letter. */
    static final int MAX_KEY_CHARS = 1024;

    private final DispatcherSettings settings;
    private final DispatcherListener listener;
    private final String scope;
    private final RecordLimits limits;
    private ProcessorContext<String, IntakeResult> context;
    private PromptBuilder prompts;
    private int contextBudget;

    IntakeProcessor(DispatcherSettings settings, DispatcherListener listener) {
        this.settings = settings;
        this.listener = listener;
        this.scope = settings.scope();
        this.limits = settings.limits();
    }

    @Override
    public void init(ProcessorContext<String, IntakeResult> context) {
        this.context = context;
        this.prompts = new PromptBuilder(settings.model());
        // a ticket must fit alone: system prompt and framing + itself + its completion budget
        this.contextBudget = settings.model().contextTokens() - prompts.fixedTokens() - settings.batch().maxTokensFor(1);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        long now = context.currentSystemTimeMs();
        Optional<RecordMetadata> meta = context.recordMetadata();
        String topic = meta.map(RecordMetadata::topic).orElse("unknown");
        WorkItem.Origin here = new WorkItem.Origin(topic, meta.map(RecordMetadata::partition).orElse(-1),
                meta.map(RecordMetadata::offset).orElse(-1L));
        boolean fromRetry = settings.topics().retry().equals(topic);
        Headers in = record.headers();
        WorkItem.Origin origin = fromRetry ? retryOrigin(in, here) : here;
        FailureHeaders.ProducerHeaders producer = FailureHeaders.producerHeaders(in, limits.maxHeaderBytes());
        byte[] original = record.value() == null ? new byte[0] : record.value();

        TicketParser.Parsed parsed = TicketParser.parse(original);
        if (parsed instanceof TicketParser.Invalid invalid) {
            reject(record, original, origin, producer, now, ErrorKind.BAD_INPUT.wire(), invalid.reason());
            return;
        }
        Ticket ticket = ((TicketParser.Valid) parsed).ticket();
        int tokens = prompts.itemTokens(new ModelItem(ticket.id(), ticket.subject(), ticket.body()));
        if (tokens > contextBudget) {
            reject(record, original, origin, producer, now, ErrorKind.TOO_LARGE.wire(),
                    "ticket needs about " + tokens + " prompt tokens; the context budget for one ticket is " + contextBudget);
            return;
        }
        byte[] carried = original;
        long size = original.length;
        String sha256 = null;
        if (fromRetry && FailureHeaders.string(in, FailureHeaders.VALUE_TRUNCATED).filter("true"::equals).isPresent()) {
            // a reduced ticket coming back: it stands for the producer's larger record
            size = FailureHeaders.longValue(in, FailureHeaders.ORIGINAL_SIZE).orElse(original.length);
            sha256 = FailureHeaders.string(in, FailureHeaders.ORIGINAL_SHA256).orElse(null);
        } else if (original.length > limits.maxValueBytes()) {
            carried = ReducedTicket.of(ticket);
            sha256 = WorkItem.sha256(original);
            if (carried.length > limits.maxValueBytes()) {
                reject(record, original, origin, producer, now, ErrorKind.TOO_LARGE.wire(), "ticket text of " + carried.length
                        + " bytes exceeds records.max-value-bytes (" + limits.maxValueBytes() + ")");
                return;
            }
        }
        WorkItem item = fromRetry
                ? fromRetry(ticket, tokens, carried, size, sha256, producer, in, origin, now)
                : fresh(ticket, tokens, carried, size, sha256, producer, in, origin, now);
        context.forward(new Record<String, IntakeResult>(scope, new IntakeResult.Accepted(item), record.timestamp(), new RecordHeaders()));
    }

    private static WorkItem.Origin retryOrigin(Headers h, WorkItem.Origin here) {
        return new WorkItem.Origin(FailureHeaders.string(h, FailureHeaders.ORIGIN_TOPIC).orElse(here.topic()),
                FailureHeaders.integer(h, FailureHeaders.ORIGIN_PARTITION).orElse(here.partition()),
                FailureHeaders.longValue(h, FailureHeaders.ORIGIN_OFFSET).orElse(here.offset()));
    }

    private WorkItem fresh(Ticket ticket, int tokens, byte[] carried, long size, String sha256,
                           FailureHeaders.ProducerHeaders producer, Headers headers, WorkItem.Origin origin, long now) {
        Priority priority = settings.topics().priorityOf(origin.topic()).orElse(ticket.priority().orElse(Priority.STANDARD));
        int replayCount = FailureHeaders.integer(headers, FailureHeaders.REPLAY_COUNT).orElse(0);
        String replayOf = FailureHeaders.string(headers, FailureHeaders.REPLAY_OF).orElse(null);
        return new WorkItem(ticket.id(), priority, ticket.tenant(), tokens, carried, origin, now, 0, 0, null, replayCount,
                replayOf, 0, 1, size, sha256, producer.kept());
    }

    private WorkItem fromRetry(Ticket ticket, int tokens, byte[] carried, long size, String sha256,
                               FailureHeaders.ProducerHeaders producer, Headers h, WorkItem.Origin origin, long now) {
        Priority priority = settings.topics().priorityOf(origin.topic()).orElse(ticket.priority().orElse(Priority.STANDARD));
        long enqueuedAt = FailureHeaders.longValue(h, FailureHeaders.ENQUEUED_AT).orElse(now);
        int attempt = Math.max(1, FailureHeaders.integer(h, FailureHeaders.ATTEMPT).orElse(1));
        long notBefore = FailureHeaders.longValue(h, FailureHeaders.NOT_BEFORE).orElse(now);
        OptionalLong first = FailureHeaders.longValue(h, FailureHeaders.FIRST_FAILURE);
        OptionalLong last = FailureHeaders.longValue(h, FailureHeaders.LAST_FAILURE);
        WorkItem.FailureState failure = new WorkItem.FailureState(first.orElse(now), last.orElse(now),
                FailureHeaders.string(h, FailureHeaders.ERROR_KIND).orElse(ErrorKind.TRANSIENT.wire()),
                FailureHeaders.integer(h, FailureHeaders.ERROR_STATUS).orElse(0),
                FailureHeaders.string(h, FailureHeaders.ERROR_MESSAGE).orElse(""));
        return new WorkItem(ticket.id(), priority, ticket.tenant(), tokens, carried, origin, enqueuedAt, attempt, notBefore,
                failure, FailureHeaders.integer(h, FailureHeaders.REPLAY_COUNT).orElse(0),
                FailureHeaders.string(h, FailureHeaders.REPLAY_OF).orElse(null),
                FailureHeaders.integer(h, FailureHeaders.BATCH_CAP).orElse(0),
                FailureHeaders.integer(h, FailureHeaders.MAX_TOKENS_BOOST).orElse(1), size, sha256, producer.kept());
    }

    private void reject(Record<String, byte[]> record, byte[] original, WorkItem.Origin origin,
                        FailureHeaders.ProducerHeaders producer, long now, String kind, String reason) {
        BoundedValue value = BoundedValue.of(original, limits.maxValueBytes());
        Headers headers = FailureHeaders.forRejectedInput(origin, now, kind, reason, producer, value,
                FailureHeaders.integer(record.headers(), FailureHeaders.REPLAY_COUNT).orElse(0),
                FailureHeaders.string(record.headers(), FailureHeaders.REPLAY_OF).orElse(null));
        String key = record.key() != null && record.key().length() > MAX_KEY_CHARS ? record.key().substring(0, MAX_KEY_CHARS) : record.key();
        context.forward(new Record<String, IntakeResult>(key, new IntakeResult.Rejected(value.bytes()), record.timestamp(), headers));
        listener.deadLettered(scope, kind);
    }
}
