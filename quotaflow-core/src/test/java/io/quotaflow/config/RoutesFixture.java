package io.quotaflow.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import io.quotaflow.settings.Routing;

/** The routes tests' shared fixture: a properties file of routes, the keys in the environment, loading. */
final class RoutesFixture {

    /** Never to appear in a message. */
    static final String CANARY = "sk-LEAKCANARY0123456789abcdef2345";

    /** A complete three-route configuration, the example of docs/configuration.md. */
    static final String THREE_ROUTES = """
            bootstrap.servers=b:9092
            routes=primary,backup,long
            route.primary.base-url=https://api.openai.com/v1
            route.primary.model=gpt-4o-mini
            route.primary.api-key-env=OPENAI_API_KEY
            route.primary.rpm=500
            route.primary.tpm=200000
            route.primary.context-tokens=128000
            route.primary.fallback=backup
            route.primary.context-fallback=long
            route.primary.price.input-per-mtok=0.15
            route.primary.price.output-per-mtok=0.60
            route.backup.base-url=https://api.groq.com/openai/v1
            route.backup.model=llama-3.1-8b-instant
            route.backup.api-key-env=GROQ_API_KEY
            route.backup.rpm=30
            route.backup.tpm=6000
            route.backup.context-tokens=8192
            route.backup.rpd=14400
            route.backup.daily-reset-hour-utc=7
            route.long.base-url=https://api.anthropic.example/v1
            route.long.model=claude-long
            route.long.api-key-file=%s
            route.long.context-tokens=200000
            route.long.input-tpm=40000
            route.long.output-tpm=8000
            routing.default=primary
            routing.priority.bulk=backup
            routing.tenant.acme=backup
            routing.max-wait.interactive=45s
            cache.ttl=30m
            """;

    private RoutesFixture() {
    }

    /** The keys of {@link #THREE_ROUTES}' primary and backup routes. */
    static Map<String, String> keys() {
        return new HashMap<>(Map.of("OPENAI_API_KEY", "sk-openai-primary-0001", "GROQ_API_KEY", "gsk_backup_0002"));
    }

    /** {@code text} as {@code q.properties} in {@code dir}. */
    static Path file(Path dir, String text) {
        try {
            return Files.writeString(dir.resolve("q.properties"), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #THREE_ROUTES} in {@code dir}, with the long route's key in a file beside it. */
    static Path threeRoutes(Path dir) {
        try {
            Path key = Files.writeString(dir.resolve("long.key"), "sk-ant-long-0003\n");
            return file(dir, String.format(THREE_ROUTES, key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The configuration of {@code run} from these sources. */
    static QuotaflowConfig load(Path file, Map<String, String> env, Map<String, String> flags) {
        return ConfigLoader.load(file, env, flags);
    }

    /** The routing {@code run} would use. */
    static Routing routing(Path file, Map<String, String> env, Map<String, String> flags) {
        return load(file, env, flags).dispatcher().routing();
    }

    /** Flags with the cluster and the single-route base URL. */
    static Map<String, String> base() {
        return new HashMap<>(Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://localhost:8089/v1"));
    }
}
