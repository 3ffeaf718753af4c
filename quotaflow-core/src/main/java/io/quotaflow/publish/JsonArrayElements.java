package io.quotaflow.publish;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The elements of a JSON array of tickets ({@code [{...}, {...}]}), each as the bytes it has in the
 * input (nothing re-encoded), so that an array file publishes as the same tickets one per line would.
 * The whole array is in memory. An unclosed array or content after it is an {@link IOException}.
 */
final class JsonArrayElements implements LineSource {

    private static final JsonFactory JSON = new JsonFactory();

    private final byte[] input;
    private final JsonParser parser;
    private boolean done;

    JsonArrayElements(byte[] input) throws IOException {
        this.input = input;
        this.parser = JSON.createParser(input);
        if (parser.nextToken() != JsonToken.START_ARRAY) {
            throw new IOException("not a JSON array");
        }
    }

    @Override
    public byte[] next() throws IOException {
        if (done) {
            return null;
        }
        JsonToken token = parser.nextToken();
        if (token == null) {
            throw new IOException("the JSON array is not closed (a ']' is missing)");
        }
        if (token == JsonToken.END_ARRAY) {
            done = true;
            if (parser.nextToken() != null) {
                throw new IOException("content after the JSON array's closing ']'");
            }
            return null;
        }
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            int start = (int) parser.currentTokenLocation().getByteOffset();
            parser.skipChildren();
            int end = (int) parser.currentLocation().getByteOffset();
            return Arrays.copyOfRange(input, start, end);
        }
        // a number, string, true, false or null: not a ticket; the line parser says so
        return (token == JsonToken.VALUE_STRING ? "\"" + parser.getText() + "\"" : parser.getText()).getBytes(StandardCharsets.UTF_8);
    }
}
