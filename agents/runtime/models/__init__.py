"""The chat-model seam and its implementations (litellm, replay, scripted)."""

from agents.runtime.models.base import ChatModel, ChatResponse, ModelReplyError, ToolCall, Usage

__all__ = ["ChatModel", "ChatResponse", "ModelReplyError", "ToolCall", "Usage"]
