package io.quotaflow.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

/**
 * The {@code /metrics} page, rendered one at a time on the executor given (one thread): a scrape
 * that arrives while a render is under way waits for that render and gets its page, so any number
 * of concurrent scrapes costs about one render, and rendering never takes more than that one
 * thread. A scrape that arrives after a render finished gets a fresh one. The gzipped page is made
 * on the same thread, once per render (Prometheus asks for it on every scrape).
 */
public final class MetricsPage {

    /** One render: the page as text and gzipped. */
    public record Page(byte[] plain, byte[] gzipped) {
    }

    private final Supplier<byte[]> render;
    private final Executor renderer;
    private CompletableFuture<Page> rendering;

    public MetricsPage(Supplier<byte[]> render, Executor renderer) {
        this.render = Objects.requireNonNull(render, "render");
        this.renderer = Objects.requireNonNull(renderer, "renderer");
    }

    /** The page of the render under way, or of a new one; the caller's own copy (time it out, cancel it freely). */
    public synchronized CompletableFuture<Page> next() {
        if (rendering == null || rendering.isDone()) {
            rendering = CompletableFuture.supplyAsync(() -> {
                byte[] plain = render.get();
                return new Page(plain, gzip(plain));
            }, renderer);
        }
        return rendering.copy();
    }

    static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 4 + 64);
        try (GZIPOutputStream zip = new GZIPOutputStream(out, 8192)) {
            zip.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Whether an {@code Accept-Encoding} header accepts gzip: it names {@code gzip} (or {@code *})
     * without {@code q=0}.
     */
    public static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String part : acceptEncoding.split(",")) {
            String[] pieces = part.split(";");
            String coding = pieces[0].strip().toLowerCase(java.util.Locale.ROOT);
            if (!coding.equals("gzip") && !coding.equals("x-gzip") && !coding.equals("*")) {
                continue;
            }
            boolean refused = false;
            for (int i = 1; i < pieces.length; i++) {
                String param = pieces[i].strip().toLowerCase(java.util.Locale.ROOT).replace(" ", "");
                if (param.startsWith("q=")) {
                    try {
                        refused = Double.parseDouble(param.substring(2)) <= 0;
                    } catch (NumberFormatException e) {
                        refused = true;
                    }
                }
            }
            if (!refused) {
                return true;
            }
        }
        return false;
    }
}
