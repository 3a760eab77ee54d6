"""The chat-model seam and its implementations (litellm, replay, scripted)."""

from agents.runtime.models.base import ChatModel, ChatResponse, ModelReplyError, ModelUnavailable, ToolCall, Usage

__all__ = ["ChatModel", "ChatResponse", "ModelReplyError", "ModelUnavailable", "ToolCall", "Usage"]
