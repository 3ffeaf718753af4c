package io.quotaflow.ticket;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

import java.io.IOException;
import io.quotaflow.records.Json;

/**
 * Serde for quotaflow's internal records (the dispatch repartition topic, the dispatcher's state
 * stores) in CBOR, Jackson's binary JSON: a ticket's bytes are stored raw (JSON would base64 them,
 * a third more), strings as UTF-8 without escaping. Values start with CBOR's self-describe tag
 * ({@code D9 D9 F7}); a value starting with {@code '{'} is read as the JSON these records were
 * stored in before, so state written by an older version still restores.
 */
public final class BinarySerde<T> implements Serde<T> {

    static final ObjectMapper CBOR = CBORMapper.builder()
            .enable(CBORGenerator.Feature.WRITE_TYPE_HEADER)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    private final Class<T> type;
    /** Bound to the type once: a call does not look up its root serializer and deserializer again. */
    private final ObjectWriter writer;
    private final ObjectReader reader;

    public BinarySerde(Class<T> type) {
        this.type = type;
        this.writer = CBOR.writerFor(type);
        this.reader = CBOR.readerFor(type);
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, data) -> {
            if (data == null) {
                return null;
            }
            try {
                return writer.writeValueAsBytes(data);
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
                return data.length > 0 && data[0] == '{' ? Json.MAPPER.readValue(data, type) : reader.readValue(data);
            } catch (IOException e) {
                throw new SerializationException("cannot deserialise " + type.getSimpleName() + " from " + topic, e);
            }
        };
    }
}
