package dev.muster.engine.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reads a YAML stream (or, for a source named {@code *.json}, a stream of JSON values) into its
 * documents, each read on its own: as Kubernetes' {@code YAMLReader} does, the stream is split at
 * {@code ---} lines before any parsing, so a syntax error, a byte that is not UTF-8 or an alias bomb
 * costs only the document it is in. Stateless and thread-safe.
 */
public final class YamlDocuments {
    private static final Logger log = LoggerFactory.getLogger(YamlDocuments.class);

    private YamlDocuments() {}

    /** The documents of a file's bytes; {@code source} ending in {@code .json} reads JSON. */
    public static ImmutableList<YamlDocument> read(String source, byte[] bytes) {
        if (source.toLowerCase(Locale.ROOT).endsWith(".json")) {
            return JsonDocuments.read(bytes);
        }
        return readYaml(bytes);
    }

    /** The documents of a text already decoded; {@code source} ending in {@code .json} reads JSON. */
    public static ImmutableList<YamlDocument> read(String source, String text) {
        return read(source, text.getBytes(StandardCharsets.UTF_8));
    }

    static ImmutableList<YamlDocument> readYaml(byte[] bytes) {
        ImmutableList.Builder<YamlDocument> documents = ImmutableList.builder();
        for (DocumentSplitter.Chunk chunk : DocumentSplitter.split(bytes)) {
            documents.add(readChunk(bytes, chunk));
        }
        return documents.build();
    }

    private static YamlDocument readChunk(byte[] bytes, DocumentSplitter.Chunk chunk) {
        Utf8.Decoded decoded = Utf8.decode(bytes, chunk.from(), chunk.to(), chunk.firstLine());
        if (decoded.error().isPresent()) {
            return failed(chunk, decoded.error().get(), HeaderScan.scan(Utf8.lenient(bytes, chunk.from(), chunk.to())));
        }
        String text = decoded.text().orElseThrow();
        LoaderOptions options = options();
        TreeBuilder builder = new TreeBuilder(options, chunk.firstLine());
        try {
            Composer composer = new Composer(new ParserImpl(new StreamReader(new StringReader(text)), options), new Resolver(), options);
            Node node = composer.getSingleNode();
            Optional<JsonNode> tree = node == null ? Optional.empty() : Optional.of(builder.build(node)).filter(root -> !root.isNull());
            Positions positions = node == null ? Positions.NONE : new Positions(node, chunk.firstLine());
            return new YamlDocument(chunk.index(), chunk.firstLine(), tree, Optional.empty(), ImmutableList.copyOf(builder.warnings()),
                    YamlDocument.Header.NONE, positions);
        } catch (TreeBuilder.ParseFailure e) {
            return failed(chunk, e.error(), HeaderScan.scan(text));
        } catch (MarkedYAMLException e) {
            return failed(chunk, syntaxError(chunk, e), HeaderScan.scan(text));
        } catch (YAMLException e) {
            return failed(chunk, limitError(chunk, e), HeaderScan.scan(text));
        } catch (RuntimeException | StackOverflowError e) {
            // the library failed in a way it does not describe; say so in our words, keep the rest of the stream
            log.debug("document {} starting at line {} could not be read", chunk.index(), chunk.firstLine(), e);
            return failed(chunk, new ReadError(chunk.firstLine(), 0, "cannot be read as YAML; the document is ignored"),
                    HeaderScan.scan(text));
        }
    }

    /**
     * SnakeYAML's limits, set for manifests: documents of any size (a cluster dump's List is large),
     * nesting as deep as {@link TreeBuilder#MAX_DEPTH}, aliases capped by {@link TreeBuilder} on what
     * they expand to rather than by their count, no recursive keys, merge keys ({@code <<}) resolved.
     */
    static LoaderOptions options() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        options.setNestingDepthLimit(TreeBuilder.MAX_DEPTH);
        options.setMaxAliasesForCollections(Integer.MAX_VALUE);
        options.setAllowRecursiveKeys(false);
        options.setMergeOnCompose(true);
        return options;
    }

    private static ReadError syntaxError(DocumentSplitter.Chunk chunk, MarkedYAMLException e) {
        Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String problem = Optional.ofNullable(e.getProblem()).orElse("").strip();
        String message = problem.isEmpty() ? "not valid YAML" : "not valid YAML (" + problem + ")";
        if (mark == null) {
            return new ReadError(chunk.firstLine(), 0, message + "; the document is ignored");
        }
        return new ReadError(chunk.firstLine() + mark.getLine(), mark.getColumn() + 1, message + "; the document is ignored");
    }

    private static ReadError limitError(DocumentSplitter.Chunk chunk, YAMLException e) {
        String text = String.valueOf(e.getMessage());
        String message = text.startsWith("Nesting Depth exceeded")
                ? "nests deeper than " + TreeBuilder.MAX_DEPTH + " levels"
                : "cannot be read as YAML";
        return new ReadError(chunk.firstLine(), 0, message + "; the document is ignored");
    }

    static YamlDocument failed(DocumentSplitter.Chunk chunk, ReadError error, YamlDocument.Header header) {
        return new YamlDocument(chunk.index(), chunk.firstLine(), Optional.empty(), Optional.of(error), ImmutableList.of(), header, Positions.NONE);
    }
}
