package io.quotaflow.records;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The serde of {@code tickets.classified} values: JSON as {@code schemas/classification.schema.json}
 * describes it, to and from {@link Classification}. Fields a later version adds are ignored when
 * read. Read that topic with {@code isolation.level=read_committed}: quotaflow writes it in
 * transactions, and only committed results are final.
 */
public final class ClassificationSerde implements Serde<Classification> {

    private final JsonSerde<Classification> json = new JsonSerde<>(Classification.class);

    @Override
    public Serializer<Classification> serializer() {
        return json.serializer();
    }

    @Override
    public Deserializer<Classification> deserializer() {
        return json.deserializer();
    }
}
