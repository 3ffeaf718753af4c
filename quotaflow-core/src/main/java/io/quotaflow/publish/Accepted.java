package io.quotaflow.publish;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.util.Objects;

/**
 * One record the broker acknowledged: where a ticket (or a tombstone for one) now is. What
 * {@code quotaflow publish} prints per ticket and {@code quotaflow cancel} per topic written.
 *
 * @param id        the record key: the ticket's key ({@code tenant:id}, the id alone for the default tenant)
 * @param topic     the topic written to (under {@code topics.prefix})
 * @param partition the partition the broker put it in
 * @param offset    its offset there, or {@value #UNKNOWN_OFFSET} when the producer was told not to
 *                  wait for it ({@code acks=0})
 */
public record Accepted(String id, String topic, int partition, long offset) {

    /** The offset of a record written with {@code acks=0}. */
    public static final long UNKNOWN_OFFSET = -1;

    private static final ObjectMapper JSON = new ObjectMapper();

    public Accepted {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(topic, "topic");
        if (partition < 0 || offset < UNKNOWN_OFFSET) {
            throw new IllegalArgumentException("not a partition and offset: " + partition + "@" + offset);
        }
    }

    /** Where the broker put the record keyed {@code id}. */
    public static Accepted of(String id, RecordMetadata metadata) {
        return new Accepted(id, metadata.topic(), metadata.partition(),
                metadata.hasOffset() ? metadata.offset() : UNKNOWN_OFFSET);
    }

    /** {@code tickets.standard-2@17}: the topic-partition and offset ({@code @?} when unknown). */
    public String position() {
        return topic + "-" + partition + "@" + (offset == UNKNOWN_OFFSET ? "?" : Long.toString(offset));
    }

    /** {@code accepted T-123 tickets.standard-2@17}. */
    public String describe() {
        return "accepted " + id + " " + position();
    }

    /**
     * {@code {"key":"acme:T-123","id":"T-123","tenant":"acme","topic":"tickets.standard","partition":2,"offset":17}},
     * one line ({@code "offset":null} when unknown).
     */
    public String toJson() {
        ObjectNode node = JSON.createObjectNode();
        io.quotaflow.records.TicketKey key = io.quotaflow.records.TicketKey.parse(id);
        node.put("key", id);
        node.put("id", key.id());
        node.put("tenant", key.tenant());
        node.put("topic", topic);
        node.put("partition", partition);
        if (offset == UNKNOWN_OFFSET) {
            node.putNull("offset");
        } else {
            node.put("offset", offset);
        }
        return node.toString();
    }
}
