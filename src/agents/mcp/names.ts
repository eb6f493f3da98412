/**
 * Who the MCP server says it is, in `initialize` and in its server card. A module without the
 * SDK, so the card can be served without loading it.
 */
export const mcpServerName = 'groundwork';
export const mcpServerVersion = '1.0.0';
/** The protocol version the card advertises (the SDK negotiates it in `initialize`). */
export const mcpProtocolVersion = '2025-11-25';
