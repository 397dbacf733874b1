package dev.muster.engine.yaml;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.common.collect.ImmutableList;
import java.io.IOException;
import java.io.StringReader;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * A stream of JSON values, each a document, as Kubernetes' JSON decoder reads a {@code .json} file.
 * The values before a syntax error are kept; the error is reported on the value it is in, and the rest
 * of the file is not read (JSON has no separator to start again from).
 */
final class JsonDocuments {
    private static final Pattern UNEXPECTED = Pattern.compile("^Unexpected character \\('(.{1,2})'");
    private static final ObjectMapper JSON = new JsonMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(TreeBuilder.MAX_DEPTH).build())
            .build());

    private JsonDocuments() {}

    static ImmutableList<YamlDocument> read(byte[] bytes) {
        DocumentSplitter.Chunk whole = new DocumentSplitter.Chunk(0, 1, 0, bytes.length);
        Utf8.Decoded decoded = Utf8.decode(bytes, 0, bytes.length, 1);
        if (decoded.error().isPresent()) {
            return ImmutableList.of(YamlDocuments.failed(whole, decoded.error().get(), HeaderScan.scan(Utf8.lenient(bytes, 0, bytes.length))));
        }
        String text = decoded.text().orElseThrow();
        ImmutableList.Builder<YamlDocument> documents = ImmutableList.builder();
        int index = 0;
        int line = 1;
        try (JsonParser parser = JSON.createParser(text)) {
            while (true) {
                JsonLocation start = parser.currentTokenLocation();
                line = Math.max(1, start.getLineNr());
                if (parser.nextToken() == null) {
                    break;
                }
                JsonLocation valueStart = parser.currentTokenLocation();
                line = Math.max(1, valueStart.getLineNr());
                JsonNode tree = JSON.readTree(parser);
                Positions positions = positions(text, valueStart, parser.currentLocation());
                documents.add(new YamlDocument(index++, line, Optional.of(tree), Optional.empty(), ImmutableList.of(), YamlDocument.Header.NONE,
                        positions));
            }
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            ReadError error = at == null
                    ? new ReadError(line, 0, describe(e))
                    : new ReadError(Math.max(0, at.getLineNr()), Math.max(0, at.getColumnNr()), describe(e));
            DocumentSplitter.Chunk chunk = new DocumentSplitter.Chunk(index, line, 0, bytes.length);
            documents.add(YamlDocuments.failed(chunk, error, HeaderScan.scan(text.substring(offset(text, line)))));
        } catch (IOException | RuntimeException e) {
            DocumentSplitter.Chunk chunk = new DocumentSplitter.Chunk(index, line, 0, bytes.length);
            documents.add(YamlDocuments.failed(chunk, new ReadError(line, 0, "cannot be read as JSON; the rest of the file is ignored"),
                    YamlDocument.Header.NONE));
        }
        return documents.build();
    }

    /**
     * Where the fields of one JSON value were written. Jackson's trees carry no positions, and a JSON value
     * is a YAML flow node, so the value's text is composed (not constructed) by SnakeYAML for its marks
     * alone; the tree itself is Jackson's. Where SnakeYAML reads the text differently or not at all (YAML
     * 1.1 knows no {@code \/} escape), the value has no positions and its problems name no line.
     */
    private static Positions positions(String text, JsonLocation start, JsonLocation end) {
        long from = start.getCharOffset();
        long to = end.getCharOffset();
        if (from < 0 || to > text.length() || from >= to || start.getLineNr() < 1 || start.getColumnNr() < 1) {
            return Positions.NONE;
        }
        // the value's first line keeps its column: pad it as far as the value starts on its line
        String value = " ".repeat(start.getColumnNr() - 1) + text.substring((int) from, (int) to);
        try {
            LoaderOptions options = YamlDocuments.options();
            Node node = new Composer(new ParserImpl(new StreamReader(new StringReader(value)), options), new Resolver(), options).getSingleNode();
            return node == null ? Positions.NONE : new Positions(node, start.getLineNr());
        } catch (RuntimeException e) {
            return Positions.NONE;
        }
    }

    private static String describe(JsonProcessingException e) {
        if (e instanceof StreamConstraintsException) {
            return "nests deeper than " + TreeBuilder.MAX_DEPTH + " levels; the rest of the file is ignored";
        }
        if (e instanceof JsonEOFException || String.valueOf(e.getOriginalMessage()).startsWith("Unexpected end-of-input")) {
            return "the JSON ends inside a value (is the file cut short?); the rest of the file is ignored";
        }
        Matcher unexpected = UNEXPECTED.matcher(String.valueOf(e.getOriginalMessage()));
        if (unexpected.find()) {
            return "not valid JSON (unexpected '" + unexpected.group(1) + "'); the rest of the file is ignored";
        }
        return "not valid JSON; the rest of the file is ignored";
    }

    /** The character offset where a line (from 1) starts. */
    private static int offset(String text, int line) {
        int offset = 0;
        for (int current = 1; current < line && offset >= 0; current++) {
            offset = text.indexOf('\n', offset) + 1;
            if (offset == 0) {
                return 0;
            }
        }
        return offset;
    }
}
