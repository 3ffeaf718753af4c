package io.quotaflow.records;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;

/**
 * The serde of ticket values on the input topics, as {@code schemas/ticket.schema.json} describes
 * them: a {@link Ticket} is written as its whole JSON document (unknown fields included), and read
 * with quotaflow's own strict rules ({@link TicketParser#parse}), so a value this serde accepts is
 * one the pipeline accepts. A value it rejects fails with the reason the pipeline would dead-letter
 * it with.
 */
public final class TicketSerde implements Serde<Ticket> {

    @Override
    public Serializer<Ticket> serializer() {
        return (topic, ticket) -> {
            if (ticket == null) {
                return null;
            }
            try {
                return Json.MAPPER.writeValueAsBytes(ticket.json());
            } catch (IOException e) {
                throw new SerializationException("cannot serialise ticket " + ticket.id(), e);
            }
        };
    }

    @Override
    public Deserializer<Ticket> deserializer() {
        return (topic, data) -> {
            if (data == null) {
                return null;
            }
            TicketParser.Parsed parsed = TicketParser.parse(data);
            if (parsed instanceof TicketParser.Valid valid) {
                return valid.ticket();
            }
            throw new SerializationException("not a ticket on " + topic + ": " + ((TicketParser.Invalid) parsed).reason());
        };
    }
}
