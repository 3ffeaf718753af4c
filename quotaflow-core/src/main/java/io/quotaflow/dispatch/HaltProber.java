package io.quotaflow.dispatch;

import io.quotaflow.dispatch.call.CallSender;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.limit.ProviderModel;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.quota.Charge;
import io.quotaflow.records.Priority;

import java.util.UUID;

/**
 * A halted online scope's probe (docs/design.md, "Routes"): a call of its own when one is due
 * ({@code retry.halt-probe-ms} after the last refusal), {@code quotaflow check}'s one-token call
 * ({@link PromptBuilder#probe}), admitted by the limiter like any call and sent without blocking through the
 * route's client (so bounded by its {@code llm.timeout}), never a ticket: every waiting ticket with a fallback
 * can move, none stays behind to probe. A batch route's probe is still one of its tickets (its calls go
 * through the Batch API), so a batch route has none of these.
 */
final class HaltProber {

    private final String scope;
    private final String model;
    private final ProviderModel provider;
    private final ScopeHealth health;
    private final DispatcherListener listener;
    private final CallSender calls;
    private final OutcomeApplier outcomes;
    /** The probe out now, or null. */
    private String out;

    HaltProber(String scope, String model, ProviderModel provider, ScopeHealth health, DispatcherListener listener, CallSender calls,
               OutcomeApplier outcomes) {
        this.scope = scope;
        this.model = model;
        this.provider = provider;
        this.health = health;
        this.listener = listener;
        this.calls = calls;
        this.outcomes = outcomes;
    }

    /** Sends a probe if the scope is halted, one is due, none is out, and the limiter admits it. */
    void probe(long now) {
        if (out != null || !health.halted() || health.mode(now) != ScopeHealth.Mode.PROBE) {
            return;
        }
        ChatPrompt prompt = PromptBuilder.probe(model);
        Charge charge = Charge.call(prompt.promptTokens(), prompt.maxTokens());
        String id = "halt-probe-" + UUID.randomUUID();
        if (!provider.admit(id, Priority.INTERACTIVE, charge, Charge.NONE)) {
            return;
        }
        health.start(now);
        out = id;
        // counted as a call of no ticket: the limiter admitted it, so the utilisation shows it
        listener.dispatched(scope, Priority.INTERACTIVE, 0, prompt.promptTokens(), charge.tokens());
        calls.send(new ModelRequest(id, prompt));
    }

    /** If {@code callId} is the probe out, the scope's health hears its {@code outcome}; true then (the call carried no ticket). */
    boolean answered(String callId, ModelOutcome outcome, long now) {
        if (!callId.equals(out)) {
            return false;
        }
        out = null;
        listener.completed(scope, outcome, 0);
        outcomes.probed(outcome, provider.answered(callId, outcome), now);
        return true;
    }
}
