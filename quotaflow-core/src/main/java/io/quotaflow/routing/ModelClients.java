package io.quotaflow.routing;


import io.quotaflow.settings.RouteSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.OpenAiChatClient;

/**
 * The model client of each quota scope: one per base URL, key and model, made on first use and
 * closed with the pipeline. {@link #of(ModelClient)} serves every route with one client (tests,
 * simulators that answer any model).
 */
public final class ModelClients implements AutoCloseable {

    private final Function<RouteSettings, ModelClient> factory;
    private final Map<String, ModelClient> byScope = new ConcurrentHashMap<>();
    private final boolean owned;

    private ModelClients(Function<RouteSettings, ModelClient> factory, boolean owned) {
        this.factory = factory;
        this.owned = owned;
    }

    /** A client per scope, made by {@code factory} from the scope's first route, closed by {@link #close}. */
    public static ModelClients perScope(Function<RouteSettings, ModelClient> factory) {
        return new ModelClients(factory, true);
    }

    /** OpenAI-compatible clients, one per scope. */
    public static ModelClients openAi() {
        return perScope(route -> new OpenAiChatClient(route.model()));
    }

    /** One client for every route; {@link #close} leaves it open (its owner closes it). */
    public static ModelClients of(ModelClient client) {
        return new ModelClients(route -> client, false);
    }

    /** The client of {@code route}'s scope. */
    public ModelClient forRoute(RouteSettings route) {
        return byScope.computeIfAbsent(route.scope(), s -> factory.apply(route));
    }

    @Override
    public void close() {
        if (!owned) {
            return;
        }
        List<Exception> failures = new ArrayList<>();
        byScope.values().forEach(c -> {
            try {
                c.close();
            } catch (Exception e) {
                failures.add(e);
            }
        });
        byScope.clear();
        if (!failures.isEmpty()) {
            IllegalStateException e = new IllegalStateException("closing model clients failed");
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }
}
