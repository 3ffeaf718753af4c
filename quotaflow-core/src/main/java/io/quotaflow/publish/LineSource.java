package io.quotaflow.publish;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits input into lines. A line ends at {@code \n} (a {@code \r} before it is dropped); a last
 * line without a terminator still counts; a UTF-8 byte order mark at the very start is dropped.
 */
interface LineSource {

    /** The next line without its terminator, or {@code null} at the end of the input. */
    byte[] next() throws IOException;

    /**
     * Lines of a character stream, encoded as UTF-8; or, when its first character other than white
     * space is {@code [}, the elements of that JSON array ({@link JsonArrayElements}).
     */
    static LineSource of(Reader reader) {
        BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader, 1 << 16);
        return new Detecting(() -> {
            in.mark(PEEK_LIMIT);
            int c = in.read();
            int read = 1;
            while (c != -1 && read < PEEK_LIMIT && (Character.isWhitespace(c) || c == '\uFEFF')) {
                c = in.read();
                read++;
            }
            in.reset();
            if (c == '[') {
                StringBuilder all = new StringBuilder();
                char[] chunk = new char[1 << 16];
                for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                    all.append(chunk, 0, n);
                }
                return new JsonArrayElements(withoutBom(all.toString().getBytes(StandardCharsets.UTF_8)));
            }
            return lines(in);
        });
    }

    /** How far ahead the input is read for a {@code [} (white space before it). */
    int PEEK_LIMIT = 1 << 16;

    private static LineSource lines(BufferedReader in) {
        return new LineSource() {
            private boolean first = true;

            @Override
            public byte[] next() throws IOException {
                String line = in.readLine();
                if (line == null) {
                    return null;
                }
                if (first) {
                    first = false;
                    if (line.startsWith("\uFEFF")) {
                        line = line.substring(1);
                    }
                }
                return line.getBytes(StandardCharsets.UTF_8);
            }
        };
    }

    /**
     * Lines of a byte stream, bytes untouched (no charset decoding); or, when its first byte other
     * than white space (and a byte order mark) is {@code [}, the elements of that JSON array.
     */
    static LineSource of(InputStream input) {
        return new Detecting(() -> {
            BufferedInputStream in = new BufferedInputStream(input, PEEK_LIMIT);
            in.mark(PEEK_LIMIT);
            int b = in.read();
            int read = 1;
            while (b != -1 && read < PEEK_LIMIT && (b == ' ' || b == '\t' || b == '\r' || b == '\n'
                    || read <= 3 && (b == 0xEF || b == 0xBB || b == 0xBF))) {
                b = in.read();
                read++;
            }
            in.reset();
            return b == '[' ? new JsonArrayElements(withoutBom(in.readAllBytes())) : new ByteLines(in);
        });
    }

    private static byte[] withoutBom(byte[] bytes) {
        return bytes.length >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF
                ? Arrays.copyOfRange(bytes, 3, bytes.length) : bytes;
    }

    /** Chooses lines or array elements at the first {@link #next()}, when the input is read. */
    final class Detecting implements LineSource {

        /** What reads the start of the input and returns the source for the rest. */
        interface Chooser {
            LineSource choose() throws IOException;
        }

        private final Chooser chooser;
        private LineSource chosen;

        Detecting(Chooser chooser) {
            this.chooser = chooser;
        }

        @Override
        public byte[] next() throws IOException {
            if (chosen == null) {
                chosen = chooser.choose();
            }
            return chosen.next();
        }
    }

    final class ByteLines implements LineSource {
        private final InputStream in;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int limit;
        private boolean eof;
        private boolean first = true;
        private byte[] line = new byte[1024];

        ByteLines(InputStream in) {
            this.in = in;
        }

        @Override
        public byte[] next() throws IOException {
            int len = 0;
            boolean sawAny = false;
            while (true) {
                if (pos == limit) {
                    if (eof || !fill()) {
                        if (!sawAny) {
                            return null;
                        }
                        break;
                    }
                }
                sawAny = true;
                int start = pos;
                while (pos < limit && buf[pos] != '\n') {
                    pos++;
                }
                len = append(len, start, pos - start);
                if (pos < limit) { // found '\n'
                    pos++;
                    break;
                }
            }
            if (len > 0 && line[len - 1] == '\r') {
                len--;
            }
            int from = 0;
            if (first) {
                first = false;
                if (len >= 3 && line[0] == (byte) 0xEF && line[1] == (byte) 0xBB && line[2] == (byte) 0xBF) {
                    from = 3;
                }
            }
            return Arrays.copyOfRange(line, from, len);
        }

        private boolean fill() throws IOException {
            int n = in.read(buf);
            while (n == 0) {
                n = in.read(buf);
            }
            if (n < 0) {
                eof = true;
                return false;
            }
            pos = 0;
            limit = n;
            return true;
        }

        private int append(int len, int start, int count) {
            if (len + count > line.length) {
                line = Arrays.copyOf(line, Math.max(line.length * 2, len + count));
            }
            System.arraycopy(buf, start, line, len, count);
            return len + count;
        }
    }
}
