package io.quotaflow.batch;

import io.quotaflow.http.CallDeadlineException;
import io.quotaflow.http.RawHttpServer;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every Batch API request bounded as a whole, and files read line by line. */
class BatchApiClientTest {

    private static BatchApiClient client(RawHttpServer server, Duration timeout) {
        return new BatchApiClient(ModelSettings.of(server.uri("/v1"), "gpt-4o-mini", Secret.of("sk-test-batch-client")).withTimeout(timeout));
    }

    @Test
    void shouldFailAStatusWhoseAnswerStallsAfterItsHeadersWithinTheDeadlineAndCloseTheConnection() throws Exception {
        try (RawHttpServer server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(200));
            out.write("{\"id\":\"batch_1\",\"status\":".getBytes(StandardCharsets.UTF_8));
            out.flush();
        })) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> client(server, Duration.ofMillis(400)).status("batch_1").get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(CallDeadlineException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(server.awaitClosedByClient(5_000)).as("its socket closed").isTrue();
        }
    }

    @Test
    void shouldHandEachLineOfAFileAsItIsReadAndReadTheJobsMetadataAndErrors() throws Exception {
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            file.append("{\"custom_id\":\"c").append(i).append("\",\"response\":{\"status_code\":200,\"body\":{}},\"error\":null}\n");
        }
        file.append("{\"custom_id\":\"broken\",\"respo\n");
        byte[] body = file.toString().getBytes(StandardCharsets.UTF_8);
        try (RawHttpServer server = new RawHttpServer(out -> {
            out.write(RawHttpServer.okHeaders(body.length));
            out.write(body);
        })) {
            List<String> ids = new ArrayList<>();
            client(server, Duration.ofSeconds(5)).lines("file-1", line -> ids.add(line.customId())).get(10, TimeUnit.SECONDS);
            assertThat(ids).hasSize(500).startsWith("c0", "c1").endsWith("c499");
        }
        BatchApiClient.Info info = BatchApiClient.info(io.quotaflow.records.Json.MAPPER.readTree("{\"id\":\"batch_9\",\"status\":\"failed\","
                + "\"errors\":{\"object\":\"list\",\"data\":[{\"code\":\"token_limit_exceeded\",\"message\":\"Enqueued token limit "
                + "reached for gpt-4o-mini in organization org-x. Limit: 90,000 enqueued tokens.\",\"param\":null,\"line\":null}]},"
                + "\"metadata\":{\"quotaflow_job\":\"k1\",\"quotaflow_scope\":\"s1\"},\"usage\":{\"input_tokens\":1234}}"));
        assertThat(info.status()).isEqualTo(BatchStatus.FAILED);
        assertThat(info.errorCode()).isEqualTo("token_limit_exceeded");
        assertThat(info.errors()).contains("Limit: 90,000");
        assertThat(info.jobKey()).isEqualTo("k1");
        assertThat(info.jobScope()).isEqualTo("s1");
        assertThat(info.inputTokens()).isEqualTo(1234);
    }
}
