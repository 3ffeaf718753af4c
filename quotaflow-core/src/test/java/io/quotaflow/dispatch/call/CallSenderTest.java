package io.quotaflow.dispatch.call;

import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class CallSenderTest {

    private static ModelRequest request(String id) {
        return new ModelRequest(id, new PromptBuilder(Fixtures.model()).build(List.of(new ModelItem("T-1", "s", "b")), 50));
    }

    private static List<String> drained(CallSender sender) {
        List<String> seen = new ArrayList<>();
        sender.drain((id, outcome) -> seen.add(id + ":" + (outcome instanceof ModelOutcome.Failed f ? f.kind() + " " + f.message()
                : outcome.getClass().getSimpleName())));
        return seen;
    }

    @Test
    void shouldHoldAnswersUntilDrainedInArrivalOrder() {
        CompletableFuture<ModelOutcome> first = new CompletableFuture<>();
        CompletableFuture<ModelOutcome> second = new CompletableFuture<>();
        Map<String, CompletableFuture<ModelOutcome>> futures = Map.of("a", first, "b", second);
        CallSender sender = new CallSender(r -> futures.get(r.batchId()));
        sender.send(request("a"));
        sender.send(request("b"));
        assertThat(drained(sender)).isEmpty();
        second.completeExceptionally(new java.io.IOException("reset"));
        first.complete(null);
        assertThat(drained(sender)).containsExactly("b:TRANSIENT client error: IOException", "a:TRANSIENT client error: no outcome");
        assertThat(drained(sender)).as("each answer once").isEmpty();
    }

    @Test
    void shouldAnswerAClientThatThrowsWithATransientFailure() {
        CallSender sender = new CallSender(r -> {
            throw new IllegalStateException("closed");
        });
        sender.send(request("a"));
        assertThat(drained(sender)).containsExactly("a:TRANSIENT client error: IllegalStateException");
    }

    @Test
    void shouldDropAnswersArrivingAfterClose() {
        CompletableFuture<ModelOutcome> pending = new CompletableFuture<>();
        CallSender sender = new CallSender(r -> pending);
        sender.send(request("a"));
        sender.close();
        pending.complete(null);
        assertThat(drained(sender)).isEmpty();
    }
}
