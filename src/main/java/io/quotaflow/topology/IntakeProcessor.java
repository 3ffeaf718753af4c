package io.quotaflow.topology;

import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.model.ModelItem;
import io.quotaflow.model.PromptBuilder;
import io.quotaflow.ticket.Priority;
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
 * {@code too-large}) with its original bytes. Records from the retry topic carry their attempt
 * state in {@code qf.*} headers and keep their original priority.
 */
final class IntakeProcessor implements Processor<String, byte[], String, IntakeResult> {

    private final DispatcherSettings settings;
    private final String scope;
    private ProcessorContext<String, IntakeResult> context;
    private PromptBuilder prompts;
    private int contextBudget;

    IntakeProcessor(DispatcherSettings settings) {
        this.settings = settings;
        this.scope = settings.scope();
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
        int partition = meta.map(RecordMetadata::partition).orElse(-1);
        long offset = meta.map(RecordMetadata::offset).orElse(-1L);
        byte[] original = record.value() == null ? new byte[0] : record.value();

        TicketParser.Parsed parsed = TicketParser.parse(original);
        if (parsed instanceof TicketParser.Invalid invalid) {
            reject(record, original, topic, partition, offset, now, ErrorKind.BAD_INPUT, invalid.reason());
            return;
        }
        Ticket ticket = ((TicketParser.Valid) parsed).ticket();
        int tokens = prompts.itemTokens(new ModelItem(ticket.id(), ticket.subject(), ticket.body()));
        if (tokens > contextBudget) {
            reject(record, original, topic, partition, offset, now, ErrorKind.TOO_LARGE,
                    "ticket needs about " + tokens + " prompt tokens; the context budget for one ticket is " + contextBudget);
            return;
        }
        WorkItem item = Topics.RETRY.name().equals(topic)
                ? fromRetry(ticket, tokens, original, record.headers(), topic, partition, offset, now)
                : fresh(ticket, tokens, original, record.headers(), topic, partition, offset, now);
        context.forward(new Record<String, IntakeResult>(scope, new IntakeResult.Accepted(item), record.timestamp(), new RecordHeaders()));
    }

    private WorkItem fresh(Ticket ticket, int tokens, byte[] original, Headers headers, String topic, int partition,
                           long offset, long now) {
        Priority priority = Priority.ofTopic(topic).orElse(ticket.priority().orElse(Priority.STANDARD));
        int replayCount = FailureHeaders.integer(headers, FailureHeaders.REPLAY_COUNT).orElse(0);
        String replayOf = FailureHeaders.string(headers, FailureHeaders.REPLAY_OF).orElse(null);
        return new WorkItem(ticket.id(), priority, ticket.tenant(), tokens, original,
                new WorkItem.Origin(topic, partition, offset), now, 0, 0, null, replayCount, replayOf, 0, 1);
    }

    private WorkItem fromRetry(Ticket ticket, int tokens, byte[] original, Headers h, String topic, int partition,
                               long offset, long now) {
        String originTopic = FailureHeaders.string(h, FailureHeaders.ORIGIN_TOPIC).orElse(topic);
        Priority priority = Priority.ofTopic(originTopic).orElse(ticket.priority().orElse(Priority.STANDARD));
        int originPartition = FailureHeaders.integer(h, FailureHeaders.ORIGIN_PARTITION).orElse(partition);
        long originOffset = FailureHeaders.longValue(h, FailureHeaders.ORIGIN_OFFSET).orElse(offset);
        long enqueuedAt = FailureHeaders.longValue(h, FailureHeaders.ENQUEUED_AT).orElse(now);
        int attempt = FailureHeaders.integer(h, FailureHeaders.ATTEMPT).orElse(1);
        long notBefore = FailureHeaders.longValue(h, FailureHeaders.NOT_BEFORE).orElse(now);
        OptionalLong first = FailureHeaders.longValue(h, FailureHeaders.FIRST_FAILURE);
        OptionalLong last = FailureHeaders.longValue(h, FailureHeaders.LAST_FAILURE);
        WorkItem.FailureState failure = new WorkItem.FailureState(first.orElse(now), last.orElse(now),
                FailureHeaders.string(h, FailureHeaders.ERROR_KIND).orElse(ErrorKind.TRANSIENT),
                FailureHeaders.integer(h, FailureHeaders.ERROR_STATUS).orElse(0),
                FailureHeaders.string(h, FailureHeaders.ERROR_MESSAGE).orElse(""));
        return new WorkItem(ticket.id(), priority, ticket.tenant(), tokens, original,
                new WorkItem.Origin(originTopic, originPartition, originOffset), enqueuedAt, attempt, notBefore, failure,
                FailureHeaders.integer(h, FailureHeaders.REPLAY_COUNT).orElse(0),
                FailureHeaders.string(h, FailureHeaders.REPLAY_OF).orElse(null),
                FailureHeaders.integer(h, FailureHeaders.BATCH_CAP).orElse(0),
                FailureHeaders.integer(h, FailureHeaders.MAX_TOKENS_BOOST).orElse(1));
    }

    private void reject(Record<String, byte[]> record, byte[] original, String topic, int partition, long offset, long now,
                        String kind, String reason) {
        Headers headers = FailureHeaders.forRejectedInput(topic, partition, offset, now, kind, reason, record.headers());
        context.forward(new Record<String, IntakeResult>(record.key(), new IntakeResult.Rejected(original), record.timestamp(), headers));
    }
}
