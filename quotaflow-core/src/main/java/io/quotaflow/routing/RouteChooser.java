package io.quotaflow.routing;

import io.quotaflow.settings.Routing;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Picks a ticket's route at intake: the one it already travels on (a retry coming back, a ticket
 * that fell back), else its tenant's, priority's or the default rule; then, if it cannot fit that
 * route's context window alone, the first route of the {@code context-fallback} chain it fits.
 * Tokens are counted with each route's own tokenizer.
 */
public final class RouteChooser {

    /** Where a ticket goes. */
    public sealed interface Choice {
    }

    /** To {@code route}, as {@code routed}, estimated at {@code tokens} prompt tokens with its tokenizer. */
    public record Routed(RouteSettings route, WorkItem.Routed routed, int tokens) implements Choice {
    }

    /** No route of the chain can hold it alone. */
    public record TooLarge(int tokens, int budget, String route) implements Choice {
    }

    private final Routing routing;
    private final BatchSettings batch;
    private final Map<String, PromptBuilder> prompts = new HashMap<>();

    public RouteChooser(Routing routing, BatchSettings batch) {
        this.routing = routing;
        this.batch = batch;
    }

    /** The route of a ticket of {@code priority} and {@code tenant} that carries {@code carried}. */
    public Choice choose(Priority priority, String tenant, WorkItem.Routed carried, ModelItem item) {
        RouteSettings start = routing.route(carried.route()).orElse(null);
        WorkItem.Routed routed = carried;
        if (start == null) {
            start = routing.routeFor(priority, tenant);
            routed = WorkItem.Routed.to(start.name());
        }
        int tokens = tokens(start, item);
        if (tokens <= budget(start)) {
            return new Routed(start, routed, tokens);
        }
        Set<String> seen = new HashSet<>();
        seen.add(start.name());
        RouteSettings next = routing.route(start.contextFallback()).orElse(null);
        while (next != null && seen.add(next.name())) {
            int t = tokens(next, item);
            if (t <= budget(next)) {
                return new Routed(next, new WorkItem.Routed(next.name(), start.name(), FallbackReason.CONTEXT.wire()), t);
            }
            next = routing.route(next.contextFallback()).orElse(null);
        }
        return new TooLarge(tokens, budget(start), start.name());
    }

    /** Prompt tokens {@code item} adds to a call on {@code route}. */
    public int tokens(RouteSettings route, ModelItem item) {
        return prompts(route).itemTokens(item);
    }

    /** Prompt tokens one ticket may have on {@code route}: its window less the framing and one ticket's completion budget. */
    public int budget(RouteSettings route) {
        return route.contextTokens() - prompts(route).fixedTokens() - batch.maxTokensFor(1);
    }

    /** The prompt builder of {@code route} (its tokenizer and closed sets). */
    public PromptBuilder prompts(RouteSettings route) {
        return prompts.computeIfAbsent(route.name(), n -> new PromptBuilder(route.model()));
    }
}
