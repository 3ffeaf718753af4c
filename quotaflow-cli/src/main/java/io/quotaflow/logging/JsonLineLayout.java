package io.quotaflow.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * {@code log.format=json}: one JSON object per line, {@code {"timestamp", "level", "logger", "thread",
 * "message"}} and {@code "exception"} (the stack trace as text) when there is one, the MDC's entries
 * under {@code "mdc"} when there are any. The timestamp is ISO-8601 in UTC with milliseconds.
 *
 * <p>Why not logback's own {@code JsonEncoder}: it writes the time as epoch milliseconds, the message
 * as its pattern with the arguments apart ({@code "formattedMessage"} is a separate field), and the
 * logger as {@code "loggerName"} and the logger context's properties into every line; log shippers
 * (Loki, Elasticsearch, Cloud Logging) read these five plain fields without a mapping.
 */
public final class JsonLineLayout extends LayoutBase<ILoggingEvent> {

    /** Milliseconds always printed, so that lines sort as text. */
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public String doLayout(ILoggingEvent event) {
        StringWriter line = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(line)) {
            g.writeStartObject();
            g.writeStringField("timestamp", TIMESTAMP.format(Instant.ofEpochMilli(event.getTimeStamp())));
            g.writeStringField("level", event.getLevel().toString());
            g.writeStringField("logger", event.getLoggerName());
            g.writeStringField("thread", event.getThreadName());
            g.writeStringField("message", event.getFormattedMessage());
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                g.writeStringField("exception", ThrowableProxyUtil.asString(thrown));
            }
            Map<String, String> mdc = event.getMDCPropertyMap();
            if (mdc != null && !mdc.isEmpty()) {
                g.writeObjectFieldStart("mdc");
                for (Map.Entry<String, String> e : mdc.entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return line.append(CoreConstants.LINE_SEPARATOR).toString();
    }

    @Override
    public String getContentType() {
        return "application/json";
    }
}
