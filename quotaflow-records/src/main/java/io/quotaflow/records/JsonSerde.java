package io.quotaflow.records;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;

/** Jackson serde for a record type. */
public final class JsonSerde<T> implements Serde<T> {

    private final Class<T> type;

    public JsonSerde(Class<T> type) {
        this.type = type;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, data) -> {
            if (data == null) {
                return null;
            }
            try {
                return Json.MAPPER.writeValueAsBytes(data);
            } catch (IOException e) {
                throw new SerializationException("cannot serialise " + type.getSimpleName(), e);
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, data) -> {
            if (data == null) {
                return null;
            }
            try {
                return Json.MAPPER.readValue(data, type);
            } catch (IOException e) {
                throw new SerializationException("cannot deserialise " + type.getSimpleName() + " from " + topic, e);
            }
        };
    }
}
