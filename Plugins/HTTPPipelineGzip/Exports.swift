// The codec's errors are the plugin's errors: `import HTTPPipelineGzip` is enough to catch a
// `GzipError`, as it was before the codec became a module of its own.
@_exported public import HTTPPipelineZlib
